import type { Translator } from "../server/i18n.js";
import { API_ROUTES } from "../shared/api/routes.js";
import type { TagsPatch, TagValue } from "../shared/api/tag-rule.js";
import { DEFAULT_SERVER } from "./api-call.js";
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
export async function tagsCommand(userId: string, action: TagsAction, options: TagsOptions, io: SendIo, { t }: Translator): Promise<0 | 1 | 2> {
  const usage = (message: string) => {
    io.stderr(`${message}\n${t("cli:tags.usage")}\n`);
    return 2 as const;
  };
  const token = options.token ?? io.env.SINO_TOKEN;
  if (token === undefined || token.trim() === "") return usage(t("cli:tags.noToken"));
  const server = (options.server ?? io.env.SINO_URL ?? DEFAULT_SERVER).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+/i.test(server)) return usage(t("cli:send.badServer", { server }));

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

  const doFetch = io.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${server}${API_ROUTES.people}/${encodeURIComponent(userId)}/tags`, {
      method,
      headers: { accept: "application/json", authorization: `Bearer ${token.trim()}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    io.stderr(`${t("cli:send.unreachable", { server, reason })}\n`);
    return 1;
  }
  let answer: unknown;
  try {
    answer = JSON.parse(await response.text());
  } catch {
    answer = undefined;
  }
  if (!response.ok) {
    const error = (answer as { error?: { code?: string; message?: string } } | undefined)?.error;
    const message = error?.message ?? t("cli:send.httpError", { status: response.status });
    io.stderr(`${t("cli:tags.refused", { message, code: error?.code ?? String(response.status) })}\n`);
    return 1;
  }
  const tags = (answer as { tags: Record<string, TagValue> }).tags;
  const lines = Object.entries(tags).map(([key, value]) => (value === true ? key : `${key}=${String(value)}`));
  io.stdout(lines.length === 0 ? `${t("cli:tags.none", { userId })}\n` : `${lines.join("\n")}\n`);
  return 0;
}
