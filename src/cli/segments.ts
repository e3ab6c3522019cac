import type { Translator } from "../server/i18n.js";
import { API_ROUTES } from "../shared/api/routes.js";
import type { SavedSegment, SavedSegmentResponse, SavedSegmentsResponse } from "../shared/api/saved-segments.js";
import { callApi, type ApiIo, type ApiTarget, type Called } from "./api-call.js";

const number = (value: number) => new Intl.NumberFormat("pt-BR").format(value);

function sizeText(segment: SavedSegment, t: Translator["t"]): string {
  if (segment.size === null) return t("cli:segments.notMeasured");
  return t("cli:segments.size", { count: segment.size.subscriptions, subscriptions: number(segment.size.subscriptions), people: number(segment.size.people) });
}

/** `sino segments list`: one line per saved segment — id, name, size, expression. */
export async function segmentsListCommand(target: ApiTarget, io: ApiIo, translator: Translator): Promise<0 | 1 | 2> {
  const called = await callApi<SavedSegmentsResponse>(target, io, translator, "GET", API_ROUTES.segments);
  if (!called.ok) return called.code;
  const { t } = translator;
  if (called.body.segments.length === 0) io.stdout(`${t("cli:segments.none")}\n`);
  for (const segment of called.body.segments) io.stdout(`${segment.id}\t${segment.name}\t${sizeText(segment, t)}\t${segment.expression}\n`);
  return 0;
}

/** `sino segments count "<expr>"`: how many subscriptions and people match now (POST /segments/count). */
export async function segmentsCountCommand(expression: string, options: ApiTarget & { readonly tagKinds?: string }, io: ApiIo, translator: Translator): Promise<0 | 1 | 2> {
  const called = await callApi<{ subscriptions: number; people: number; expression: string; unknownChannels?: string[] }>(options, io, translator, "POST", API_ROUTES.segmentsCount, {
    expression,
    ...(options.tagKinds === undefined ? {} : { tagKinds: options.tagKinds }),
  });
  if (!called.ok) return called.code;
  const { t } = translator;
  const { subscriptions, people } = called.body;
  io.stdout(`${t("cli:segments.counted", { count: subscriptions, subscriptions: number(subscriptions), people: number(people), expression: called.body.expression })}\n`);
  const unknown = called.body.unknownChannels ?? [];
  if (unknown.length > 0) io.stderr(`${t("cli:segments.unknownChannels", { count: unknown.length, channels: unknown.join(", ") })}\n`);
  return 0;
}

/** `sino segments create --name N "<expr>"`: saves a segment (an admin token) and prints its id and size. */
export async function segmentsCreateCommand(
  expression: string,
  options: ApiTarget & { readonly name: string; readonly description?: string; readonly tagKinds?: string },
  io: ApiIo,
  translator: Translator,
): Promise<0 | 1 | 2> {
  const called = await callApi<SavedSegmentResponse>(options, io, translator, "POST", API_ROUTES.segments, {
    name: options.name,
    expression,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.tagKinds === undefined ? {} : { tagKinds: options.tagKinds }),
  });
  if (!called.ok) return called.code;
  const segment = called.body.segment;
  io.stdout(`${translator.t("cli:segments.created", { id: segment.id, name: segment.name, size: sizeText(segment, translator.t) })}\n`);
  return 0;
}

/**
 * A saved segment's id from what `sino send --segment` was given: the id itself, or a name
 * (case-insensitive) looked up in the list; when none matches, the reason is printed.
 */
export async function savedSegmentId(given: string, target: ApiTarget, io: ApiIo, translator: Translator): Promise<Called<string>> {
  if (/^\d{1,15}$/.test(given)) return { ok: true, body: given };
  const called = await callApi<SavedSegmentsResponse>(target, io, translator, "GET", API_ROUTES.segments);
  if (!called.ok) return called;
  const key = given.trim().toLocaleLowerCase("pt-BR");
  const found = called.body.segments.find((segment) => segment.name.toLocaleLowerCase("pt-BR") === key);
  if (found === undefined) {
    io.stderr(`${translator.t("cli:segments.notFound", { name: given })}\n`);
    return { ok: false, code: 1 };
  }
  return { ok: true, body: found.id };
}
