import { createECDH } from "node:crypto";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ADMIN, ApiClient, addToken, startOperatorServer } from "../../../test/support/operators.js";
import { createLogger } from "../logger.js";

describe("logs", () => {
  it("never contain passwords, session cookies or API token secrets", async () => {
    let output = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const server = await startOperatorServer({ dialect: "sqlite", logger: createLogger("trace", sink) });
    try {
      const admin = new ApiClient(server);
      await admin.post("/api/v1/setup", ADMIN);
      await admin.post("/api/v1/session", { email: ADMIN.email, password: "senha-errada-no-log" });
      await admin.post("/api/v1/session", { email: ADMIN.email, password: ADMIN.password });
      const { secret } = await addToken(admin, "admin");
      await new ApiClient(server, { bearer: secret, origin: null }).get("/api/v1/tokens");
      await admin.post("/api/v1/users", { name: "Log", email: "log@x.com", password: "senha-do-usuario-log", role: "publisher" });
      // A site's VAPID key, imported (valid and refused) and generated: the private key never shows.
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const vapidPrivate = Buffer.concat([Buffer.alloc(32 - ecdh.getPrivateKey().length), ecdh.getPrivateKey()]).toString("base64url");
      const site = (await admin.post("/api/v1/sites", { origin: "https://chaves.exemplo.com.br" })).body.site as { id: string };
      const wrongPublic = createECDH("prime256v1");
      wrongPublic.generateKeys();
      expect((await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: JSON.stringify({ publicKey: wrongPublic.getPublicKey().toString("base64url"), privateKey: vapidPrivate }) })).status).toBe(400);
      expect((await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: vapidPrivate })).status).toBe(200);
      expect((await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "generate" })).status).toBe(200);
      const storedPrivate = await server.database.db.selectFrom("vapid_keys").select("private_key").execute();
      // The imported key went when the generated one replaced it (no subscription used it).
      expect(storedPrivate).toHaveLength(1);
      const cookie = admin.session!;
      await admin.delete("/api/v1/session");

      expect(output).toContain("signed in");
      expect(output).toContain("site VAPID key set");
      for (const secretText of [ADMIN.password, "senha-errada-no-log", "senha-do-usuario-log", secret, secret.slice(5), cookie, vapidPrivate, ...storedPrivate.map((row) => row.private_key)]) {
        expect(output).not.toContain(secretText);
      }
      expect(output).not.toMatch(/sino_session=/);
    } finally {
      await server.close();
    }
  });
});
