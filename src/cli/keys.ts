import { readFile } from "node:fs/promises";
import { importVapidKeys, isVapidKeyImportError, type VapidKeyFormat } from "../push/vapid-key-import.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import type { Config } from "../server/config.js";
import type { Translator } from "../server/i18n.js";
import { presentSiteKeys } from "../server/routes/site-keys/site-keys.js";
import type { SiteKeys } from "../shared/api/site-keys.js";
import { createDatabase } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { createRepositories, type Repositories } from "../store/repositories.js";
import type { SiteKeyChoice } from "../store/site-keys-repository.js";
import { ensureVapidKeys } from "../store/vapid-keys-store.js";
import type { CliIo } from "./main.js";

/**
 * `sino keys …`: a site's VAPID keys, straight from the configured database (like `sino users`):
 * access to DATABASE_URL is the credential. Only public keys are printed; a running server uses a
 * change within its site cache's 30 seconds.
 */
async function withRepositories<T>(config: Config, work: (repositories: Repositories, defaultPublicKey: string) => Promise<T>): Promise<T> {
  const database = createDatabase({ url: config.databaseUrl, poolSize: 1, schema: config.databaseSchema });
  try {
    await migrateToLatest(database);
    const repositories = createRepositories(database);
    const defaults = await ensureVapidKeys(repositories.settings, generateVapidKeys, config.vapidKeys);
    return await work(repositories, defaults.publicKey);
  } finally {
    await database.destroy();
  }
}

/** A site by number, public site key (`data-site`) or origin (`https://…`). */
async function findSiteId(repositories: Repositories, site: string): Promise<number | undefined> {
  const sites = await repositories.sites.listPlain();
  const trimmed = site.trim().replace(/\/+$/, "");
  const found = sites.find((s) => String(s.id) === trimmed || s.key === trimmed || s.origin === trimmed);
  return found?.id;
}

function printKeys(keys: SiteKeys, io: CliIo, { t }: Translator): void {
  io.stdout(`${t("site-keys:cli.current", { source: t(`site-keys:painel.source.${keys.current.source}`), publicKey: keys.current.publicKey })}\n`);
  for (const previous of keys.previous) io.stdout(`${t("site-keys:cli.previous", { count: previous.subscriptions, publicKey: previous.publicKey })}\n`);
  io.stdout(`${t("site-keys:cli.migrated", { count: keys.migrated })}\n`);
}

/** `sino keys show --site S`. Exit code: 0, 1 no such site. */
export async function keysShowCommand(site: string, config: Config, io: CliIo, translator: Translator): Promise<number> {
  const { t } = translator;
  const keys = await withRepositories(config, async (repositories, defaultPublicKey) => {
    const id = await findSiteId(repositories, site);
    const summary = id === undefined ? undefined : await repositories.siteKeys.summary(id);
    return summary === undefined ? undefined : presentSiteKeys(summary, defaultPublicKey);
  });
  if (keys === undefined) {
    io.stderr(`${t("cli:failed", { message: t("site-keys:cli.siteNotFound", { site }) })}\n`);
    return 1;
  }
  printKeys(keys, io, translator);
  return 0;
}

type KeyAction = { kind: "generate" } | { kind: "default" } | { kind: "import"; file: string };

/**
 * `sino keys generate|default|import --site S [FILE]`: sets the site's key. Exit code: 0 set,
 * 1 no such site or unreadable file, 2 a key the import refuses (its pt-BR reason printed).
 */
export async function keysSetCommand(site: string, action: KeyAction, config: Config, io: CliIo, translator: Translator): Promise<number> {
  const { t } = translator;
  let choice: SiteKeyChoice = { kind: "default" };
  let format: VapidKeyFormat | undefined;
  if (action.kind === "generate") choice = { kind: "pair", keys: generateVapidKeys(), source: "generated" };
  if (action.kind === "import") {
    let text: string;
    try {
      text = await readFile(action.file, "utf8");
    } catch {
      io.stderr(`${t("cli:failed", { message: t("site-keys:cli.fileUnreadable", { file: action.file }) })}\n`);
      return 1;
    }
    try {
      const imported = importVapidKeys(text);
      format = imported.format;
      choice = { kind: "pair", keys: { publicKey: imported.publicKey, privateKey: imported.privateKey }, source: "imported" };
    } catch (error) {
      if (!isVapidKeyImportError(error)) throw error;
      io.stderr(`${t("cli:failed", { message: `${t(`errors:${error.code}`)} (${error.code})` })}\n`);
      return 2;
    }
  }
  const result = await withRepositories(config, async (repositories, defaultPublicKey) => {
    const id = await findSiteId(repositories, site);
    if (id === undefined) return undefined;
    // Sino's own default pair, imported: that is the default key.
    const resolved = choice.kind === "pair" && choice.keys.publicKey === defaultPublicKey ? ({ kind: "default" } as const) : choice;
    const set = await repositories.siteKeys.setSiteKey(id, resolved, Date.now());
    const summary = await repositories.siteKeys.summary(id);
    return set === undefined || summary === undefined ? undefined : { set, keys: presentSiteKeys(summary, defaultPublicKey) };
  });
  if (result === undefined) {
    io.stderr(`${t("cli:failed", { message: t("site-keys:cli.siteNotFound", { site }) })}\n`);
    return 1;
  }
  if (format !== undefined) io.stdout(`${t("site-keys:cli.format", { format })}\n`);
  io.stdout(`${t("site-keys:cli.set", { site, publicKey: result.keys.current.publicKey, source: t(`site-keys:painel.source.${result.keys.current.source}`) })}\n`);
  if (result.set.onPreviousKey > 0) io.stdout(`${t("site-keys:cli.onPrevious", { count: result.set.onPreviousKey })}\n`);
  printKeys(result.keys, io, translator);
  return 0;
}
