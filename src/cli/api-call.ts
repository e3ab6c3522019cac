import type { Translator } from "../server/i18n.js";

export const DEFAULT_SERVER = "http://localhost:8080";

/** What a command that calls a running Sino reads and prints through. */
export interface ApiIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly fetch?: typeof fetch;
}

/** Where and as whom the segments commands call the API (`--server`, `--token`, or SINO_URL / SINO_TOKEN). */
export interface ApiTarget {
  readonly server?: string;
  readonly token?: string;
}

/** An answer of the API, or the line already printed to stderr and the exit code. */
export type Called<T> = { readonly ok: true; readonly body: T } | { readonly ok: false; readonly code: 1 | 2 };

/**
 * One JSON call to a running Sino with an API token; refusals and network failures are printed
 * in pt-BR.
 */
export async function callApi<T>(
  target: ApiTarget,
  io: ApiIo,
  { t }: Translator,
  method: string,
  path: string,
  body?: unknown,
  texts: { readonly noToken: string; readonly refused: string } = { noToken: "cli:send.noToken", refused: "cli:segments.refused" },
): Promise<Called<T>> {
  const token = target.token ?? io.env.SINO_TOKEN;
  if (token === undefined || token.trim() === "") {
    io.stderr(`${t(texts.noToken)}\n`);
    return { ok: false, code: 2 };
  }
  const server = (target.server ?? io.env.SINO_URL ?? DEFAULT_SERVER).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+/i.test(server)) {
    io.stderr(`${t("cli:send.badServer", { server })}\n`);
    return { ok: false, code: 2 };
  }
  let response: Response;
  try {
    response = await (io.fetch ?? fetch)(`${server}${path}`, {
      method,
      headers: { accept: "application/json", authorization: `Bearer ${token.trim()}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    io.stderr(`${t("cli:send.unreachable", { server, reason })}\n`);
    return { ok: false, code: 1 };
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    const message = error?.message ?? t("cli:send.httpError", { status: response.status });
    io.stderr(`${t(texts.refused, { message, code: error?.code ?? String(response.status) })}\n`);
    return { ok: false, code: 1 };
  }
  return { ok: true, body: parsed as T };
}

