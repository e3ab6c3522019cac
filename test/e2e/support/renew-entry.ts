/** Bundled by subscription-change.test.ts and injected into a page: the worker's renewal logic. */
import { createApiClient } from "../../../src/web/messaging/api-client.js";
import { renewSubscription } from "../../../src/web/sw/subscription-change.js";

(window as unknown as { sinoRenew: unknown }).sinoRenew = { createApiClient, renewSubscription };
