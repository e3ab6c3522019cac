/** Bundled by events.test.ts and injected into a page: the worker's event report, as the click handler runs it. */
import { createApiClient } from "../../../src/client/messaging/api-client.js";
import { reportNotificationEvent } from "../../../src/client/sw/report-event.js";

(window as unknown as { sinoEvents: unknown }).sinoEvents = { createApiClient, reportNotificationEvent };
