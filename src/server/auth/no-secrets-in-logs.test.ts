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
      const cookie = admin.session!;
      await admin.delete("/api/v1/session");

      expect(output).toContain("signed in");
      for (const secretText of [ADMIN.password, "senha-errada-no-log", "senha-do-usuario-log", secret, secret.slice(5), cookie]) {
        expect(output).not.toContain(secretText);
      }
      expect(output).not.toMatch(/sino_session=/);
    } finally {
      await server.close();
    }
  });
});
