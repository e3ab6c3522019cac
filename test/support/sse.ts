import type { Notification } from "../../src/shared/api/notifications.js";

/**
 * Reads a notification's progress stream (GET /notifications/:id/events) to its end and returns the `progress` events' sends. The stream ending is the server's signal.
 */
export async function readProgressEvents(url: string, headers: Record<string, string>): Promise<Notification[]> {
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers } });
  if (res.status !== 200 || res.body === null) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
  const events: Notification[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split("\n");
      if (!lines.includes("event: progress")) continue;
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      events.push(JSON.parse(data) as Notification);
    }
  }
  return events;
}
