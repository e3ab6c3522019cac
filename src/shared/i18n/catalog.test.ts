/**
 * The catalog and the code agree: every key the code asks for exists, every key in the catalog is
 * used somewhere, and every API error code has its pt-BR message. Usage is found by reading the
 * source: string literals that name a key (`"bell.enable"`, `"cli:started"`), and template
 * literals whose static prefix names a group of keys (`` `cli:config.${key}` ``).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../errors.js";
import { NAMESPACES, ptBR } from "./catalog.js";

const srcDir = fileURLToPath(new URL("../..", import.meta.url));
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** `{ bell: { enable: "…" } }` → `["bell.enable"]`. */
function flatten(tree: unknown, prefix: string): string[] {
  if (typeof tree === "string") return [prefix];
  if (typeof tree !== "object" || tree === null) throw new Error(`${prefix}: not a string or object`);
  return Object.entries(tree).flatMap(([key, value]) => flatten(value, prefix ? `${prefix}.${key}` : key));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts");
    return isSource ? [path] : [];
  });
}

const catalogKeys = new Set(flatten(ptBR, ""));
/** A plural key counts as the base key the code asks for: `cli.migrated` ↔ `cli.migrated_one`. */
const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, "");
const exists = (key: string) => catalogKeys.has(key) || [...catalogKeys].some((k) => PLURAL_SUFFIX.test(k) && baseKey(k) === key);

const namespacePattern = NAMESPACES.join("|");
/** A literal naming a key: `ns.key…` or `ns:key…` (i18next namespace separator), normalised to dots. */
const KEY_LITERAL = new RegExp(`(["'\`])((?:${namespacePattern})[.:][A-Za-z0-9_.]+)\\1`, "g");
/** The static start of a template literal that builds a key: `` `cli:config.${ `` → `cli.config.`. */
const KEY_TEMPLATE_PREFIX = new RegExp(`\`((?:${namespacePattern})[.:][A-Za-z0-9_.]*)\\$\\{`, "g");
/** Direct lookups: `t("…")`, `i18n.t("…")`, `translator.t("…")`. */
const T_CALL = /\bt\(\s*(["'`])([^"'`$]+)\1/g;

/** A namespace read as plain JSON, without i18next (the service workers): `import sw from "…/pt-BR/sw.json"`. */
const JSON_NAMESPACE_IMPORT = /import\s+(\w+)\s+from\s+["'][^"']*\/pt-BR\/(\w+)\.json["']/g;

const normalise = (key: string) => key.replace(":", ".");
/** `"sw.js"` names a file, not a key of the `sw` namespace. */
const FILE_NAME = /\.(js|mjs|ts|tsx|json|html|css|map|svg|png|webmanifest)$/;

interface Usage {
  literals: Map<string, string[]>;
  prefixes: Map<string, string[]>;
  calls: Map<string, string[]>;
}

function scan(): Usage {
  const usage: Usage = { literals: new Map(), prefixes: new Map(), calls: new Map() };
  const add = (map: Map<string, string[]>, key: string, file: string) => map.set(key, [...(map.get(key) ?? []), file]);
  for (const path of sourceFiles(srcDir)) {
    const file = relative(srcDir, path);
    if (file.startsWith(join("shared", "i18n"))) continue;
    // The store holds the SQL and never shows text: its `"channels.id"`-style column references
    // share names with namespaces (`channels`, `notifications`) but are not catalog keys.
    if (file.startsWith(`store${sep}`)) continue;
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(KEY_LITERAL)) {
      const key = match[2] ?? "";
      if (!FILE_NAME.test(key)) add(usage.literals, normalise(key), file);
    }
    for (const match of text.matchAll(KEY_TEMPLATE_PREFIX)) add(usage.prefixes, normalise(match[1] ?? ""), file);
    for (const match of text.matchAll(T_CALL)) add(usage.calls, normalise(match[2] ?? ""), file);
    // …and its keys read as properties: `sw.defaultTitle` is the key `sw.defaultTitle`.
    for (const [, local, namespace] of text.matchAll(JSON_NAMESPACE_IMPORT)) {
      for (const access of text.matchAll(new RegExp(`\\b${local}\\.([A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*)`, "g"))) {
        const key = `${namespace}.${access[1]}`;
        if (!FILE_NAME.test(key)) add(usage.literals, key, file);
      }
    }
  }
  return usage;
}

describe("the pt-BR catalog", () => {
  const usage = scan();

  it("has every key that the code looks up", () => {
    const missing = [...usage.calls.entries()]
      .filter(([key]) => !exists(key))
      .map(([key, files]) => `${key} (${files.join(", ")})`);
    expect(missing).toEqual([]);
  });

  it("has every key that the code names", () => {
    // Keys passed around before the lookup (e.g. unblock-help.ts returns one for t()).
    const missing = [...usage.literals.entries()]
      .filter(([key]) => !exists(key) && ![...catalogKeys].some((k) => k.startsWith(`${key}.`)))
      .map(([key, files]) => `${key} (${files.join(", ")})`);
    expect(missing).toEqual([]);
  });

  it("has a pt-BR message for every API error code", () => {
    const missing = ERROR_CODES.filter((code) => !catalogKeys.has(`errors.${code}`));
    expect(missing).toEqual([]);
  });

  it("has no key that nothing uses", () => {
    // errors.<code> is looked up by code (src/server/errors.ts): used when the code exists.
    const errorKeys = new Set(ERROR_CODES.map((code) => `errors.${code}`));
    const prefixes = [...usage.prefixes.keys()].filter((prefix) => prefix !== "errors.");
    const used = (key: string) =>
      errorKeys.has(key) ||
      usage.literals.has(key) ||
      usage.literals.has(baseKey(key)) ||
      usage.calls.has(key) ||
      usage.calls.has(baseKey(key)) ||
      prefixes.some((prefix) => key.startsWith(prefix));
    expect([...catalogKeys].filter((key) => !used(key))).toEqual([]);
  });

  it("is found by the scanner at all (guards against a regex that matches nothing)", () => {
    expect(usage.calls.has("bell.enable")).toBe(true);
    expect(usage.literals.has("bell.blocked.chrome")).toBe(true);
  });

  it("gives every count that can be 0 a zero form (pt-BR's plural rule puts 0 with 1: \"0 assinante\")", () => {
    // Counts that are never 0 where they are shown: a list of chosen channels or sites (1 or more),
    // characters over the limit, people in a send to people (at least one id is required), a limit;
    // `sino migrate` says "no migration" with a key of its own (cli.migratedNone).
    const neverZero = new Set([
      "api.pushTooLarge",
      "cli.migrated",
      "cli.segments.unknownChannels",
      "dashboard.compose.over",
      "dashboard.compose.confirm.nowTitleChannels",
      "dashboard.compose.confirm.nowTitleSites",
      "dashboard.compose.confirm.channels",
      "dashboard.compose.confirm.everyoneOnSites",
      "dashboard.compose.confirm.channelsOnSites",
      "dashboard.compose.confirm.channelList",
      "dashboard.compose.confirm.nowTitlePeople",
      "dashboard.compose.confirm.people",
      "notifications.audience.channels",
      "notifications.audience.allOnSites",
      "notifications.audience.channelsOnSites",
      "notifications.audience.channelList",
      "preferences.limit",
      "segments.editor.unknownChannels",
      "segments.compose.audienceOnSites",
      "segments.notification.onSites",
      // A template's or a send's audience lists 1 or more channels or sites; a retry cause counts the
      // pushes it held back (1 or more); people of a send to people (1 or more); a TTL shown in
      // minutes, hours or days is a whole, non-zero number of them (0 is shown in seconds).
      "cli.templates.audience.channels",
      "cli.templates.audience.sites",
      "templates.page.audience.channels",
      "templates.page.audience.sites",
      "notifications.retries.csvCause",
      "templates.source.peopleAgain",
      "templates.source.peopleKept",
      "notifications.ttl.minutes",
      "notifications.ttl.hours",
      "notifications.ttl.days",
      "templates.ttl.minutes",
      "templates.ttl.hours",
    ]);
    const counted = [...catalogKeys].filter((key) => key.endsWith("_one")).map(baseKey);
    const withoutZero = counted.filter((key) => !neverZero.has(key) && !catalogKeys.has(`${key}_zero`));
    expect(withoutZero).toEqual([]);
    expect([...neverZero].filter((key) => !counted.includes(key))).toEqual([]);
  });
});
