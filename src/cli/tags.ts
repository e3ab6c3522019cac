import type { Translator } from "../server/i18n.js";
import { API_ROUTES } from "../shared/api/routes.js";
import type { TagsPatch, TagValue } from "../shared/api/tag-rule.js";
import { callApi } from "./api-call.js";
import type { SendIo } from "./send.js";

export interface TagsOptions {
  readonly server?: string;
  readonly token?: string;
}

export type TagsAction = { kind: "show" } | { kind: "set"; tags: readonly string[] } | { kind: "rm"; keys: readonly string[] };

/**
 * `sino tags show|set|rm <userId> …`: a person's trusted tags through a running Sino's API, with
 * an admin-scope token. `set` takes `chave=valor` (a value that is a plain number compares as a
 * number on the server) or `chave` alone (a key-only tag) and merges; `rm` removes keys. Prints
 * the person's tags afterwards, one per line. Exit code: 0 done, 1 refused or unreachable, 2 usage.
 */
export async function tagsCommand(userId: string, action: TagsAction, options: TagsOptions, io: SendIo, translator: Translator): Promise<0 | 1 | 2> {
  const { t } = translator;
  const usage = (message: string) => {
    io.stderr(`${message}\n${t("cli:tags.usage")}\n`);
    return 2 as const;
  };
  let method = "GET";
  let body: { tags: TagsPatch } | undefined;
  if (action.kind === "set") {
    const tags: TagsPatch = {};
    for (const arg of action.tags) {
      const at = arg.indexOf("=");
      const key = at === -1 ? arg : arg.slice(0, at);
      const value: TagValue = at === -1 ? true : arg.slice(at + 1);
      if (key === "" || value === "") return usage(t("cli:tags.badTag", { tag: arg }));
      tags[key] = value;
    }
    method = "PATCH";
    body = { tags };
  } else if (action.kind === "rm") {
    method = "PATCH";
    body = { tags: Object.fromEntries(action.keys.map((key) => [key, null])) };
  }

  const path = `${API_ROUTES.people}/${encodeURIComponent(userId)}/tags`;
  const answer = await callApi<{ tags: Record<string, TagValue> }>(options, io, translator, method, path, body, { noToken: "cli:tags.noToken", refused: "cli:tags.refused" });
  if (!answer.ok) return answer.code;
  const tags = answer.body.tags;
  const lines = Object.entries(tags).map(([key, value]) => (value === true ? key : `${key}=${String(value)}`));
  io.stdout(lines.length === 0 ? `${t("cli:tags.none", { userId })}\n` : `${lines.join("\n")}\n`);
  return 0;
}
