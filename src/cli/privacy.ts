import type { Config } from "../server/config.js";
import type { Translator } from "../server/i18n.js";
import { presentPersonData, presentSubscriptionData } from "../server/presenters/personal-data.js";
import { erasureSummary } from "../shared/privacy/erasure-summary.js";
import { createDatabase } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { erasureCountsOf, type PersonalDataStore } from "../store/personal-data.js";
import { createRepositories } from "../store/repositories.js";
import type { CliIo } from "./main.js";

/** `--user <id>` or `--subscription <número>`: exactly one. */
export interface PrivacyTargetOptions {
  readonly user?: string;
  readonly subscription?: string;
}

type Target = { kind: "user"; id: string } | { kind: "subscription"; id: number };

function targetOf(options: PrivacyTargetOptions): Target | undefined {
  if ((options.user === undefined) === (options.subscription === undefined)) return undefined;
  if (options.user !== undefined) return { kind: "user", id: options.user };
  return /^\d{1,15}$/.test(options.subscription!) ? { kind: "subscription", id: Number(options.subscription) } : undefined;
}

/**
 * `sino privacy …` works on the configured database directly, like `sino users`: whoever runs the
 * server's machine answers a data subject's request (LGPD Art. 18) with the same store the API
 * and the bell use.
 */
async function withStore<T>(config: Config, work: (store: PersonalDataStore) => Promise<T>): Promise<T> {
  const database = createDatabase({ url: config.databaseUrl, poolSize: 1, schema: config.databaseSchema });
  try {
    await migrateToLatest(database);
    return await work(createRepositories(database).personalData);
  } finally {
    await database.destroy();
  }
}

function describe(target: Target, t: Translator["t"]): string {
  return target.kind === "user" ? t("privacy:cli.targetUser", { id: target.id }) : t("privacy:cli.targetSubscription", { id: target.id });
}

/** `sino privacy export`: the JSON the admin API gives, on stdout. Exit: 0, 1 nothing stored, 2 usage. */
export async function privacyExportCommand(options: PrivacyTargetOptions, config: Config, io: CliIo, { t }: Translator): Promise<number> {
  const target = targetOf(options);
  if (target === undefined) {
    io.stderr(`${t("cli:failed", { message: t("privacy:cli.oneTarget") })}\n`);
    return 2;
  }
  const exported = await withStore(config, async (store) => {
    if (target.kind === "user") {
      const data = await store.exportPerson(target.id);
      return data === undefined ? undefined : { counts: erasureCountsOf(data), data: presentPersonData(data) };
    }
    const data = await store.exportSubscription(target.id);
    return data === undefined ? undefined : { counts: erasureCountsOf(data), data: presentSubscriptionData(data) };
  });
  if (exported === undefined) {
    io.stderr(`${t("cli:failed", { message: t("privacy:cli.notFound", { target: describe(target, t) }) })}\n`);
    return 1;
  }
  io.stdout(`${JSON.stringify({ exportedAt: new Date().toISOString(), ...exported }, null, 2)}\n`);
  return 0;
}

/**
 * `sino privacy erase`: without `--yes`, says what would go and erases nothing (exit 3); with it,
 * erases and says what went. Exit: 0 erased, 1 nothing stored, 2 usage, 3 not confirmed.
 */
export async function privacyEraseCommand(options: PrivacyTargetOptions & { yes?: boolean }, config: Config, io: CliIo, { t }: Translator): Promise<number> {
  const target = targetOf(options);
  if (target === undefined) {
    io.stderr(`${t("cli:failed", { message: t("privacy:cli.oneTarget") })}\n`);
    return 2;
  }
  const lines = (counts: Parameters<typeof erasureSummary>[0]) => erasureSummary(counts, t).map((line) => `  - ${line}\n`).join("");
  const outcome = await withStore(config, async (store) => {
    if (options.yes !== true) {
      const data = target.kind === "user" ? await store.exportPerson(target.id) : await store.exportSubscription(target.id);
      return data === undefined ? undefined : { erased: false, counts: erasureCountsOf(data) };
    }
    const counts = target.kind === "user" ? await store.erasePerson(target.id, "operator", Date.now()) : await store.eraseSubscription(target.id, "operator", Date.now());
    return counts === undefined ? undefined : { erased: true, counts };
  });
  if (outcome === undefined) {
    io.stderr(`${t("cli:failed", { message: t("privacy:cli.notFound", { target: describe(target, t) }) })}\n`);
    return 1;
  }
  if (!outcome.erased) {
    io.stdout(`${t("privacy:cli.wouldErase", { target: describe(target, t) })}\n${lines(outcome.counts)}${t("privacy:cli.confirmHint")}\n`);
    return 3;
  }
  io.stdout(`${t("privacy:cli.erased", { target: describe(target, t) })}\n${lines(outcome.counts)}`);
  return 0;
}
