/**
 * `sino import FILE` end to end on SQLite and PostgreSQL: the summary (pt-BR, refusals by reason
 * with their lines), the progress bar on a terminal only, a re-run that stores nothing twice, a
 * dry run, `--site`, a missing file; and once the real command in its own process.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo, clearExitCodeAroundEachTest, databaseEnv } from "../../test/support/cli.js";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aFileSubscription, ndjsonLine } from "../../test/support/import-files.js";
import { createSitesRepository } from "../store/sites-repository.js";
import { runCli } from "./main.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sino-import-cli-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const envOf = (database: TestDatabase) => ({ ...databaseEnv(database.location), SINO_PUBLIC_URL: "http://localhost:8080" });
const io = (database: TestDatabase, tty = false) => captureIo(envOf(database), { stderrIsTty: tty });

let fileCounter = 0;
function file(lines: string[], extension = "ndjson"): string {
  const path = join(dir, `assinantes-${++fileCounter}.${extension}`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

for (const dialect of DIALECTS) {
  describe(`sino import on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));
    clearExitCodeAroundEachTest();

    async function stored(): Promise<Array<{ endpoint: string; site_id: number }>> {
      return database.db.selectFrom("subscriptions").select(["endpoint", "site_id"]).orderBy("id").execute();
    }

    it("imports a file with a progress bar on a terminal and a summary, then finds everything there on a re-run", async () => {
      const good = Array.from({ length: 1200 }, () => aFileSubscription());
      const lines = good.map((s) => ndjsonLine(s));
      lines.splice(3, 0, "isto não é json", ndjsonLine({ ...aFileSubscription(), endpoint: "https://127.0.0.1/push" }));
      const path = file(lines);

      const first = io(database, true);
      await runCli(["import", path], first);
      expect(process.exitCode).toBe(0);
      const summary = first.out.join("");
      expect(summary).toContain("Importação concluída (webpush-json).");
      expect(summary).toContain("Linhas lidas: 1.202");
      expect(summary).toContain("Importadas: 1.200");
      expect(summary).toContain("Já existiam: 0");
      expect(summary).toContain("Recusadas: 2");
      expect(summary).toContain("(import_row_invalid) Linhas: 4");
      expect(summary).toContain("(endpoint_private_address) Linhas: 5");
      expect(summary).toMatch(/linhas\/s/);
      // The bar is redrawn in place on stderr, and ends with a line break.
      const bar = first.err.join("");
      expect(bar).toMatch(/^\r\[[#-]{24}\] \d+% · [\d.]+ linhas · [\d.]+ linhas\/s/);
      expect(bar.endsWith("\n")).toBe(true);
      expect(await stored()).toHaveLength(1200);

      const again = io(database);
      await runCli(["import", path], again);
      expect(again.out.join("")).toContain("Importadas: 0");
      expect(again.out.join("")).toContain("Já existiam: 1.200");
      // Not a terminal: no bar.
      expect(again.err).toEqual([]);
      expect(await stored()).toHaveLength(1200);
    });

    it("stores nothing in a dry run, imports into the site named by --site, and refuses a missing file", async () => {
      const site = await createSitesRepository(database).create("https://www.exemplo.com.br", Date.now());
      if (site === "origin_taken") throw new Error("setup");
      const path = file([ndjsonLine(aFileSubscription()), ndjsonLine(aFileSubscription())]);

      const dry = io(database);
      await runCli(["import", path, "--dry-run", "--site", "www.exemplo.com.br"], dry);
      expect(dry.out.join("")).toContain("Simulação concluída (webpush-json): nada foi gravado.");
      expect(dry.out.join("")).toContain("Seriam importadas: 2");
      expect(await stored()).toHaveLength(0);

      await runCli(["import", path, "--site", String(site.id)], io(database));
      expect((await stored()).map((row) => Number(row.site_id))).toEqual([site.id, site.id]);

      const unknown = io(database);
      await runCli(["import", path, "--site", "outro.exemplo.com.br"], unknown);
      expect(process.exitCode).toBe(1);
      expect(unknown.err.join("")).toContain("Site não encontrado");

      const missing = io(database);
      await runCli(["import", join(dir, "nao-existe.csv")], missing);
      expect(process.exitCode).toBe(1);
      expect(missing.err.join("")).toContain("Arquivo não encontrado");

      const wrongFormat = io(database);
      await runCli(["import", path, "--format", "xml"], wrongFormat);
      expect(process.exitCode).toBe(1);
      expect(wrongFormat.err.join("")).toContain("Não reconhecemos o formato do arquivo");
    });

    it("lists at most 20 lines per reason and says how many more, with the count exact", async () => {
      const lines = Array.from({ length: 30 }, () => ndjsonLine({ ...aFileSubscription(), auth: "AAAA" }));
      const out = io(database);
      await runCli(["import", file(lines)], out);
      const text = out.out.join("");
      expect(text).toContain("30 × ");
      expect(text).toContain("(auth_invalid) Linhas: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 e mais 10");
    });
  });
}

describe("the sino command in its own process", () => {
  it("imports a CSV and exits 0 with the summary on stdout", async () => {
    const database = await createTestDatabase("sqlite");
    try {
      const [a, b] = [aFileSubscription(), aFileSubscription()];
      const path = file(["endpoint,p256dh,auth", `${a.endpoint},${a.p256dh},${a.auth}`, `${b.endpoint},${b.p256dh},${b.auth}`, `${a.endpoint},${a.p256dh},${a.auth}`], "csv");
      await database.destroy();
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn("npx", ["tsx", "src/cli/main.ts", "import", path], { env: { ...process.env, ...envOf(database) }, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Importação concluída (csv).");
      expect(result.stdout).toContain("Importadas: 2");
      expect(result.stdout).toContain("Já existiam: 1");
    } finally {
      await database.cleanup();
    }
  }, 60_000);
});
