import { afterAll, beforeAll } from "vitest";
import { startFakePushService, type FakePushService, type FakePushServiceOptions } from "./fake-push-service.js";

/**
 * Starts one fake push service for the enclosing file or describe block (beforeAll) and closes it
 * after (afterAll). Returns a getter: the service exists only once the hooks have run.
 */
export function useFakePushService(options: FakePushServiceOptions = {}): () => FakePushService {
  let fake: FakePushService | undefined;
  beforeAll(async () => {
    fake = await startFakePushService(options);
  });
  afterAll(async () => {
    await fake?.close();
  });
  return () => {
    if (fake === undefined) throw new Error("the fake push service is read before beforeAll started it");
    return fake;
  };
}
