import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import type { Schema } from "./schema.js";

const INSERT_CHUNK = 500;

/**
 * Queues `events` for every enabled webhook subscribed to their type, inside the caller's
 * transaction: an event is queued if and only if what it reports commits. Delivery (signing,
 * sending, retries) happens later, outside any transaction, so a slow or failing receiver never
 * holds up the write that produced the event. With no webhook registered this is one small read.
 */
export async function enqueueWebhookEvents(trx: Kysely<Schema>, events: readonly WebhookEvent[], now: number): Promise<number> {
  if (events.length === 0) return 0;
  const hooks = await trx.selectFrom("webhooks").select(["id", "events"]).where("enabled", "=", 1).execute();
  if (hooks.length === 0) return 0;
  const timestamp = new Date(now).toISOString();
  // Each event's body once, whatever the number of webhooks it goes to; and one random prefix per
  // call (a counter tells its messages apart) rather than a CSPRNG call per message: this runs
  // inside the delivery checkpoints, once per push when a webhook wants recipient events.
  const bodies = new Map<WebhookEvent, string>();
  const prefix = `msg_${randomBytes(12).toString("base64url")}`;
  const rows: Array<{ webhook_id: number; message_id: string; event_type: string; payload: string; not_before: number; created_at: number }> = [];
  for (const hook of hooks) {
    const wanted = new Set(JSON.parse(hook.events) as string[]);
    for (const event of events) {
      if (!wanted.has(event.type)) continue;
      let payload = bodies.get(event);
      if (payload === undefined) bodies.set(event, (payload = JSON.stringify({ type: event.type, timestamp, data: event.data })));
      rows.push({
        webhook_id: Number(hook.id),
        message_id: `${prefix}${rows.length.toString(36)}`,
        event_type: event.type,
        payload,
        not_before: now,
        created_at: now,
      });
    }
  }
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx.insertInto("webhook_messages").values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }
  return rows.length;
}
