import { afterAll, beforeAll } from "vitest";
import { addToken, setUpAdmin, type ApiClient } from "./operators.js";
import { startTestServer, type TestServer } from "./server.js";

/** The server, its signed-in admin and a publish token's secret; set by beforeAll. */
export interface PublishingServer {
  server: TestServer;
  admin: ApiClient;
  secret: string;
}

/**
 * For the enclosing describe block: a real test server without the embedded worker (sends stay
 * as stored, which is all the CLI's send command reports), its first admin, and a publish API
 * token named "cli"; the server is closed afterAll.
 */
export function usePublishingServer(): PublishingServer {
  const current: Partial<PublishingServer> = {};
  beforeAll(async () => {
    const server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    current.server = server;
    const admin = await setUpAdmin({ url: server.url, origin: server.url });
    current.admin = admin;
    current.secret = (await addToken(admin, "publish", "cli")).secret;
  });
  afterAll(async () => {
    await current.server?.close();
  });
  return current as PublishingServer;
}
