/** `sino privacy export|erase` on SQLite and PostgreSQL: the same store as the API, erasing only with --yes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { setUpAdmin, startOperatorServer, type ApiClient, type OperatorServer } from "../../test/support/operators.js";
import { aBrowserSubscription } from "../../test/support/subscriptions.js";
import type { PushSubscriptionJson } from "../shared/api/subscriptions.js";
import { runCli } from "./main.js";
import { captureIo, databaseEnv } from "../../test/support/cli.js";

const SITE = "https://www.exemplo.com.br";
const CONSENT = { source: "bell", text: "Habilitar Notificações", version: "pt-BR-0a1b2c3d" } as const;

for (const dialect of DIALECTS) {
  describe(`sino privacy on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let siteKey = "";

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com" } });
      admin = await setUpAdmin(server);
      siteKey = (await admin.post("/api/v1/sites", { origin: SITE })).body.site.key;
    });
    afterAll(async () => {
      await server.close();
      process.exitCode = undefined;
    });

    const register = (sub: PushSubscriptionJson) =>
      fetch(`${server.url}/api/v1/subscriptions`, { method: "POST", headers: { "content-type": "application/json", origin: SITE }, body: JSON.stringify({ ...sub, site: siteKey, consent: CONSENT }) });

    it("exports and erases from the command line, erasing only when confirmed with --yes", async () => {
      const sub = aBrowserSubscription();
      await register(sub);
      await admin.put("/api/v1/people/davi/subscriptions", { endpoint: sub.endpoint });
      const io = () => captureIo(databaseEnv(server.database.location));
      const exported = io();
      await runCli(["privacy", "export", "--user", "davi"], exported);
      expect(process.exitCode).toBe(0);
      expect(JSON.parse(exported.out.join(""))).toMatchObject({ counts: { subscriptions: 1 }, data: { userId: "davi" } });

      const unconfirmed = io();
      await runCli(["privacy", "erase", "--user", "davi"], unconfirmed);
      expect(process.exitCode).toBe(3);
      expect(unconfirmed.out.join("")).toBe("Apagar os dados da pessoa davi removeria:\n  - 1 inscrição (navegador)\n  - 1 registro de consentimento\nNada foi apagado. Repita com --yes para apagar.\n");
      expect((await admin.get("/api/v1/privacy/people/davi")).status).toBe(200);

      const confirmed = io();
      await runCli(["privacy", "erase", "--user", "davi", "--yes"], confirmed);
      expect(process.exitCode).toBe(0);
      expect(confirmed.out.join("")).toContain("Dados da pessoa davi apagados:");
      expect((await admin.get("/api/v1/privacy/people/davi")).status).toBe(404);

      const neither = io();
      await runCli(["privacy", "erase"], neither);
      expect(process.exitCode).toBe(2);
      process.exitCode = undefined;
    });
  });
}
