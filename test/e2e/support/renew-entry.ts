/** Bundled by subscription-change.test.ts and injected into a page: the worker's renewal logic. */
import { createApiClient } from "../../../src/client/messaging/api-client.js";
import { renewSubscription } from "../../../src/client/sw/subscription-change.js";

(window as unknown as { sinoRenew: unknown }).sinoRenew = { createApiClient, renewSubscription };
