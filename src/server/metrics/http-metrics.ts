import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from "../../shared/api/events.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import { isDatabaseUnavailable } from "../../store/database-unavailable.js";
import type { Metrics } from "./metrics.js";

const EVENT_TYPES: ReadonlySet<string> = new Set(NOTIFICATION_EVENT_TYPES);

/**
 * Times every answer and counts the public write paths' acknowledgements. Registered on the root
 * before any route, so the hooks cover every plugin context. Counting on the answer (not in the
 * handlers) counts exactly what the client was told was stored, whatever the handler does to
 * store it (one insert, or a group commit shared with other requests).
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    observe(metrics, request, reply);
    done();
  });
  app.addHook("onError", (_request, _reply, error, done) => {
    if (isDatabaseUnavailable(error)) metrics.databaseErrors.inc({ kind: "request" });
    done();
  });
}

function observe(metrics: Metrics, request: FastifyRequest, reply: FastifyReply): void {
  // The pattern (`/api/v1/notifications/:id`), never the URL: one series per route, not per id.
  const route = request.routeOptions.url ?? "unmatched";
  const status = reply.statusCode;
  // A live stream's duration is how long the page stayed open, not how fast Sino answered.
  const type = reply.getHeader("content-type");
  if (typeof type !== "string" || !type.startsWith("text/event-stream")) {
    metrics.httpDuration.observe({ method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
  }
  if (request.method !== "POST") return;
  if (route === API_ROUTES.events && status === 204) {
    const eventType = (request.body as { type?: unknown } | undefined)?.type;
    if (typeof eventType === "string" && EVENT_TYPES.has(eventType)) metrics.events.inc({ type: eventType as NotificationEventType });
  } else if (route === API_ROUTES.subscriptions && (status === 201 || status === 200)) {
    metrics.registrations.inc({ outcome: status === 201 ? "created" : "updated" });
  }
}
