import { createECDH, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureIo, clearExitCodeAroundEachTest, databaseEnv } from "../../test/support/cli.js";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { createRepositories } from "../store/repositories.js";
import { runCli } from "./main.js";

const io = (database: TestDatabase) => captureIo(databaseEnv(database.location));

for (const dialect of DIALECTS) {
  describe(`sino keys on ${dialect}`, () => {
    let database: TestDatabase;
    const dir = mkdtempSync(join(tmpdir(), "sino-keys-"));
    useTestDatabase(dialect, (created) => (database = created));
    clearExitCodeAroundEachTest();

    it("imports a PEM for a site named by its origin, shows only public keys, and refuses a bad file with its code", async () => {
      const site = await createRepositories(database).sites.create("https://velho.exemplo.com.br", Date.now());
      if (site === "origin_taken") throw new Error("setup");
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      const pem = privateKey.export({ format: "pem", type: "pkcs8" }) as string;
      const jwk = publicKey.export({ format: "jwk" });
      const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]).toString("base64url");
      writeFileSync(join(dir, `${dialect}.pem`), pem);

      const cli = io(database);
      await runCli(["keys", "import", "--site", "https://velho.exemplo.com.br", join(dir, `${dialect}.pem`)], cli);
      expect(process.exitCode ?? 0).toBe(0);
      expect(cli.out.join("")).toContain(point);
      expect(cli.out.join("")).toContain("Importada");
      expect(cli.out.join("") + cli.err.join("")).not.toContain(jwk.d ?? "never");
      expect(cli.out.join("")).not.toContain((privateKey.export({ format: "jwk" }) as { d: string }).d);

      const show = io(database);
      await runCli(["keys", "show", "--site", String(site.id)], show);
      expect(show.out.join("")).toContain(point);

      const onlyPublic = createECDH("prime256v1");
      onlyPublic.generateKeys();
      writeFileSync(join(dir, `${dialect}-public.txt`), onlyPublic.getPublicKey().toString("base64url"));
      const bad = io(database);
      await runCli(["keys", "import", "--site", site.key, join(dir, `${dialect}-public.txt`)], bad);
      expect(process.exitCode).toBe(2);
      expect(bad.err.join("")).toContain("vapid_key_public_only");
      expect(bad.err.join("")).toContain("só a chave pública");

      process.exitCode = undefined;
      const generated = io(database);
      await runCli(["keys", "generate", "--site", site.key], generated);
      expect(process.exitCode ?? 0).toBe(0);
      expect(generated.out.join("")).toContain("Gerada para este site");

      const unknown = io(database);
      await runCli(["keys", "show", "--site", "https://nenhum.exemplo.com.br"], unknown);
      expect(process.exitCode).toBe(1);
    });
  });
}
