import { describe, expect, it } from "vitest";
import { formatSegment } from "./format.js";
import { parseSegment } from "./parse.js";
import { resolveExpression, segmentTreeSchema } from "./schema.js";
import { SEGMENT_LIMITS, type SegmentNode } from "./tree.js";

function tree(text: string): SegmentNode {
  const result = parseSegment(text);
  if (!result.ok) throw new Error(`${text}: ${JSON.stringify(result.error)}`);
  return result.tree;
}

function refusal(text: string) {
  const result = parseSegment(text);
  if (result.ok) throw new Error(`${text} parsed: ${JSON.stringify(result.tree)}`);
  return result.error;
}

const plano = { tag: "plano", op: "eq", value: "premium" } as const;
const vip = { tag: "vip", op: "exists" } as const;
const optout = { tag: "optout", op: "exists" } as const;

describe("parseSegment: combinators", () => {
  it("binds não tighter than e, and e tighter than ou", () => {
    expect(tree("plano = premium ou tem vip e não tem optout")).toEqual({ or: [plano, { and: [vip, { not: optout }] }] });
    expect(tree("não tem vip e tem optout")).toEqual({ and: [{ not: vip }, optout] });
    expect(tree("tem vip e tem optout ou plano = premium")).toEqual({ or: [{ and: [vip, optout] }, plano] });
  });

  it("lets parentheses override the precedence and keeps their grouping", () => {
    expect(tree("(plano = premium ou tem vip) e não tem optout")).toEqual({ and: [{ or: [plano, vip] }, { not: optout }] });
    expect(tree("não (tem vip ou tem optout)")).toEqual({ not: { or: [vip, optout] } });
    expect(tree("tem vip e (tem optout e plano = premium)")).toEqual({ and: [vip, { and: [optout, plano] }] });
    expect(tree("((tem vip))")).toEqual(vip);
  });

  it("takes keywords in English, in any case and with or without accents", () => {
    const expected = { or: [plano, { and: [vip, { not: optout }] }] };
    expect(tree("plano = premium or tem vip and not tem optout")).toEqual(expected);
    expect(tree("plano = premium OU TEM vip E NÃO tem optout")).toEqual(expected);
    expect(tree("plano = premium Ou tem vip e nao tem optout")).toEqual(expected);
    expect(tree("plano = premium ou tem vip e NAO tem optout")).toEqual(expected);
    expect(tree("não não tem vip")).toEqual({ not: { not: vip } });
  });

  it("reads line breaks and tabs as spaces, and no space around operators", () => {
    expect(tree("plano=premium\n\te\r\n idade>=18")).toEqual({ and: [plano, { tag: "idade", op: "gte", value: 18 }] });
  });
});

describe("parseSegment: tag conditions and values", () => {
  it("reads every operator", () => {
    expect(tree("idade = 18")).toEqual({ tag: "idade", op: "eq", value: 18 });
    expect(tree("idade != 18")).toEqual({ tag: "idade", op: "ne", value: 18 });
    expect(tree("idade <> 18")).toEqual({ tag: "idade", op: "ne", value: 18 });
    expect(tree("idade > 18")).toEqual({ tag: "idade", op: "gt", value: 18 });
    expect(tree("idade >= 18")).toEqual({ tag: "idade", op: "gte", value: 18 });
    expect(tree("idade < 18")).toEqual({ tag: "idade", op: "lt", value: 18 });
    expect(tree("idade <= -2.5")).toEqual({ tag: "idade", op: "lte", value: -2.5 });
    expect(tree("bairro in (Centro, Cambuí)")).toEqual({ tag: "bairro", op: "in", values: ["Centro", "Cambuí"] });
    expect(tree("bairro em (Centro)")).toEqual({ tag: "bairro", op: "in", values: ["Centro"] });
    expect(tree("bairro não em (Centro, 3)")).toEqual({ not: { tag: "bairro", op: "in", values: ["Centro", 3] } });
    expect(tree("bairro not in (Centro)")).toEqual({ not: { tag: "bairro", op: "in", values: ["Centro"] } });
    expect(tree("tem vip")).toEqual(vip);
    expect(tree("não tem vip")).toEqual({ not: vip });
  });

  it("reads a plain decimal as a number and anything else as text", () => {
    expect(tree("x = 18")).toEqual({ tag: "x", op: "eq", value: 18 });
    expect(tree('x = "18"')).toEqual({ tag: "x", op: "eq", value: "18" });
    expect(tree("x = 01310")).toEqual({ tag: "x", op: "eq", value: "01310" });
    expect(tree("x = 1e3")).toEqual({ tag: "x", op: "eq", value: "1e3" });
    expect(tree("x = 0.5")).toEqual({ tag: "x", op: "eq", value: 0.5 });
  });

  it("keeps ISO dates as text, and lets them be compared with order operators", () => {
    expect(tree("nascimento < 2010-01-01")).toEqual({ tag: "nascimento", op: "lt", value: "2010-01-01" });
    expect(tree("renovacao >= 2026-03-01T08:00-03:00")).toEqual({ tag: "renovacao", op: "gte", value: "2026-03-01T08:00-03:00" });
    expect(tree('renovacao > "2026-03-01T08:00:00Z"')).toEqual({ tag: "renovacao", op: "gt", value: "2026-03-01T08:00:00Z" });
  });

  it("refuses order operators on text that is neither number nor date", () => {
    expect(refusal("idade > abc")).toEqual({ code: "segment_value_invalid", position: 8, reason: "segments:value.orderNeedsNumberOrDate", params: { value: "abc" } });
    expect(refusal("nascimento < 2026-02-30")).toMatchObject({ code: "segment_value_invalid", position: 13 });
    expect(refusal("x <= 2026-01-01T10:00")).toMatchObject({ code: "segment_value_invalid", position: 5 });
  });

  it("reads quoted strings with escapes, and any hostile text is just a value", () => {
    expect(tree('cidade = "São Paulo"')).toEqual({ tag: "cidade", op: "eq", value: "São Paulo" });
    expect(tree('apelido = "diz \\"oi\\" \\\\ tchau"')).toEqual({ tag: "apelido", op: "eq", value: 'diz "oi" \\ tchau' });
    expect(tree(`plano = "x'; drop table subscriptions; --"`)).toEqual({ tag: "plano", op: "eq", value: "x'; drop table subscriptions; --" });
    expect(tree(`plano in ("') or 1=1 --", "\\"; select pg_sleep(10); --")`)).toEqual({ tag: "plano", op: "in", values: ["') or 1=1 --", '"; select pg_sleep(10); --'] });
    expect(tree('x = "e ou não"')).toEqual({ tag: "x", op: "eq", value: "e ou não" });
    expect(tree("x = ou")).toEqual({ tag: "x", op: "eq", value: "ou" });
  });

  it("refuses bad strings and values", () => {
    expect(refusal('x = "aberto')).toMatchObject({ code: "segment_syntax", position: 4, reason: "segments:syntax.unterminatedString" });
    expect(refusal('x = "a\\nb"')).toMatchObject({ code: "segment_syntax", position: 6, reason: "segments:syntax.badEscape" });
    expect(refusal('x = ""')).toMatchObject({ code: "segment_value_invalid", position: 4, reason: "segments:value.empty" });
    expect(refusal('x = "a\u0000b"')).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.controlCharacters" });
    expect(refusal('x = "a\nb"')).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.controlCharacters" });
    expect(refusal(`x = "${"a".repeat(256)}"`)).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.tooLong", params: { max: 255 } });
    expect(tree(`x = "${"a".repeat(255)}"`)).toEqual({ tag: "x", op: "eq", value: "a".repeat(255) });
  });

  it("needs `etiqueta` before a key that is a reserved word, and lowercases keys", () => {
    expect(refusal("canal > 3")).toMatchObject({ code: "segment_syntax", position: 6, reason: "segments:syntax.fieldOperator" });
    expect(refusal("tem e")).toEqual({ code: "segment_syntax", position: 4, reason: "segments:syntax.reservedWord", params: { word: "e" } });
    expect(refusal("ou = 1")).toMatchObject({ code: "segment_syntax", position: 0, reason: "segments:syntax.reservedWord" });
    expect(tree("etiqueta canal = obras")).toEqual({ tag: "canal", op: "eq", value: "obras" });
    expect(tree("tag site >= 3")).toEqual({ tag: "site", op: "gte", value: 3 });
    expect(tree("tem etiqueta identificado")).toEqual({ tag: "identificado", op: "exists" });
    expect(refusal("etiqueta não in (a)")).toMatchObject({ code: "segment_syntax", position: 9, reason: "segments:syntax.invalidKey" });
    expect(tree("Plano = premium")).toEqual(plano);
  });

  it("refuses keys that break the tag key rule", () => {
    expect(refusal("cidade_é = x")).toMatchObject({ code: "segment_syntax", position: 0, reason: "segments:syntax.invalidKey" });
    expect(refusal(`${"k".repeat(65)} = 1`)).toMatchObject({ reason: "segments:syntax.invalidKey" });
    expect(refusal("a/b = 1")).toMatchObject({ reason: "segments:syntax.invalidKey" });
  });
});

describe("parseSegment: fields", () => {
  it("reads list fields with =, != and in", () => {
    expect(tree("canal = Obras")).toEqual({ field: "channel", op: "eq", value: "obras" });
    expect(tree("canal = 2026")).toEqual({ field: "channel", op: "eq", value: "2026" });
    expect(tree("canal in (obras, saude)")).toEqual({ field: "channel", op: "in", values: ["obras", "saude"] });
    expect(tree("canal != obras")).toEqual({ not: { field: "channel", op: "eq", value: "obras" } });
    expect(tree("site = 2")).toEqual({ field: "site", op: "eq", value: 2 });
    expect(tree("site em (1, 3)")).toEqual({ field: "site", op: "in", values: [1, 3] });
    expect(tree("fuso = America/Sao_Paulo")).toEqual({ field: "timeZone", op: "eq", value: "America/Sao_Paulo" });
    expect(tree("navegador in (Firefox, chrome)")).toEqual({ field: "browser", op: "in", values: ["firefox", "chrome"] });
    expect(tree("plataforma não em (ios)")).toEqual({ not: { field: "platform", op: "in", values: ["ios"] } });
    expect(tree("identificado")).toEqual({ field: "identified" });
    expect(tree("não identificado")).toEqual({ not: { field: "identified" } });
  });

  it("refuses bad field values and operators", () => {
    expect(refusal("site = abc")).toMatchObject({ code: "segment_value_invalid", position: 7, reason: "segments:value.site" });
    expect(refusal("site in (1, 0)")).toMatchObject({ code: "segment_value_invalid", position: 12 });
    expect(refusal("site = 1.5")).toMatchObject({ code: "segment_value_invalid" });
    expect(refusal("navegador >= 3")).toMatchObject({ code: "segment_syntax", position: 10, reason: "segments:syntax.fieldOperator", params: { field: "navegador" } });
  });

  it("reads moments: before and after a date, more and less than a time ago", () => {
    expect(tree("inscrito antes de 2026-01-01")).toEqual({ field: "subscribedAt", op: "before", value: "2026-01-01" });
    expect(tree("inscrito depois de 2026-01-01T10:00Z")).toEqual({ field: "subscribedAt", op: "after", value: "2026-01-01T10:00Z" });
    expect(tree("visita há mais de 30 dias")).toEqual({ field: "lastSeenAt", op: "olderThan", amount: 30, unit: "days" });
    expect(tree("visita ha mais de 1 dia")).toEqual({ field: "lastSeenAt", op: "olderThan", amount: 1, unit: "days" });
    expect(tree("clique HÁ MENOS DE 2 semanas")).toEqual({ field: "lastClickedAt", op: "within", amount: 2, unit: "weeks" });
    expect(tree("clique há menos de 1 hora")).toEqual({ field: "lastClickedAt", op: "within", amount: 1, unit: "hours" });
  });

  it("refuses incomplete or wrong moments", () => {
    expect(refusal("inscrito antes 2026-01-01")).toMatchObject({ code: "segment_syntax", position: 15, reason: "segments:syntax.expectedWord", params: { word: "de" } });
    expect(refusal("inscrito antes de amanhã")).toMatchObject({ code: "segment_value_invalid", position: 18, reason: "segments:value.date" });
    expect(refusal("visita há 30 dias")).toMatchObject({ code: "segment_syntax", position: 10, reason: "segments:syntax.expectedMoreLess" });
    expect(refusal("visita há mais de 0 dias")).toMatchObject({ code: "segment_value_invalid", position: 18, reason: "segments:value.amount" });
    expect(refusal("visita há mais de 1.5 dias")).toMatchObject({ code: "segment_value_invalid" });
    expect(refusal("visita há mais de 30 meses")).toMatchObject({ code: "segment_syntax", position: 21, reason: "segments:syntax.expectedUnit" });
    expect(refusal("visita = 3")).toMatchObject({ code: "segment_syntax", position: 7, reason: "segments:syntax.expectedTimeTest" });
  });
});

describe("parseSegment: syntax errors name the position", () => {
  it.each([
    ["", 0, "segments:syntax.empty"],
    ["   ", 3, "segments:syntax.empty"],
    ["plano =", 7, "segments:syntax.unexpectedEnd"],
    ["plano = premium e", 17, "segments:syntax.unexpectedEnd"],
    ["plano premium", 6, "segments:syntax.expectedOperator"],
    ["plano = premium tem vip", 16, "segments:syntax.expectedAndOr"],
    ["(tem vip", 8, "segments:syntax.unclosedParen"],
    ["(tem vip tem x)", 9, "segments:syntax.expectedCloseParen"],
    ["tem vip)", 7, "segments:syntax.unopenedParen"],
    ["tem vip && tem x", 8, "segments:syntax.useAnd"],
    ["tem vip || tem x", 8, "segments:syntax.useOr"],
    ["!tem vip", 0, "segments:syntax.useNot"],
    ["plano = 'premium'", 8, "segments:syntax.useDoubleQuotes"],
    ["plano = premium; drop", 15, "segments:syntax.unexpectedCharacter"],
    ["plano in premium", 9, "segments:syntax.expectedList"],
    ["plano in ()", 10, "segments:syntax.expectedValue"],
    ["plano in (a b)", 12, "segments:syntax.expectedCommaOrClose"],
    ["plano in (a,", 12, "segments:syntax.unexpectedEnd"],
    ["= 3", 0, "segments:syntax.expectedCondition"],
    ["tem", 3, "segments:syntax.expectedKey"],
    ["tem (x)", 4, "segments:syntax.expectedKey"],
    ["e tem vip", 0, "segments:syntax.reservedWord"],
  ])("%j → position %i", (text, position, reason) => {
    expect(refusal(text)).toMatchObject({ code: "segment_syntax", position, reason });
  });
});

describe("parseSegment: limits", () => {
  it("refuses text past the length limit", () => {
    const long = `x = "${"a".repeat(SEGMENT_LIMITS.textLength)}"`;
    expect(refusal(long)).toEqual({ code: "segment_too_long", position: SEGMENT_LIMITS.textLength, reason: "segments:limits.tooLong", params: { max: SEGMENT_LIMITS.textLength } });
    const justUnder = Array.from({ length: 50 }, (_, i) => `tem k${i}`).join(" e ").padEnd(SEGMENT_LIMITS.textLength, " ");
    expect(parseSegment(justUnder).ok).toBe(true);
  });

  it("refuses nesting past the depth limit at the first level too deep", () => {
    const nested = (n: number) => `${"(".repeat(n)}tem vip${")".repeat(n)}`;
    expect(tree(nested(SEGMENT_LIMITS.depth))).toEqual(vip);
    expect(refusal(nested(SEGMENT_LIMITS.depth + 1))).toMatchObject({ code: "segment_too_deep", position: SEGMENT_LIMITS.depth, reason: "segments:limits.tooDeep" });
    expect(tree(`${"não ".repeat(SEGMENT_LIMITS.depth)}tem vip`)).toBeTruthy();
    expect(refusal(`${"não ".repeat(SEGMENT_LIMITS.depth + 1)}tem vip`)).toMatchObject({ code: "segment_too_deep", position: 4 * SEGMENT_LIMITS.depth });
    // Tree depth beyond the text's nesting: every level adds an or and an and.
    let text = "tem a";
    for (let i = 0; i < 6; i++) text = `tem b${i} ou tem c${i} e (${text})`;
    expect(refusal(text)).toMatchObject({ code: "segment_too_deep" });
  });

  it("refuses hostile nesting quickly, without recursing into it", () => {
    const hostile = `${"(".repeat(10_000)}tem vip${")".repeat(10_000)}`;
    expect(refusal(hostile).code).toBe("segment_too_long");
    const underLength = `${"(".repeat(3_990)}tem vip`;
    const started = performance.now();
    expect(refusal(underLength)).toMatchObject({ code: "segment_too_deep", position: SEGMENT_LIMITS.depth });
    expect(refusal("não ".repeat(900) + "tem x")).toMatchObject({ code: "segment_too_deep" });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it("refuses more conditions than the limit at the first one too many", () => {
    const conditions = (n: number) => Array.from({ length: n }, (_, i) => `tem k${i}`).join(" e ");
    expect(parseSegment(conditions(SEGMENT_LIMITS.conditions)).ok).toBe(true);
    const text = conditions(SEGMENT_LIMITS.conditions + 1);
    expect(refusal(text)).toMatchObject({ code: "segment_too_many_conditions", position: text.lastIndexOf("tem"), params: { max: SEGMENT_LIMITS.conditions } });
  });

  it("refuses a list past the limit at the first value too many, even a huge one", () => {
    const list = (n: number) => `bairro in (${Array.from({ length: n }, (_, i) => `b${i}`).join(",")})`;
    expect(parseSegment(list(SEGMENT_LIMITS.listSize)).ok).toBe(true);
    const text = list(SEGMENT_LIMITS.listSize + 1);
    expect(refusal(text)).toMatchObject({ code: "segment_list_too_long", position: text.indexOf(`b${SEGMENT_LIMITS.listSize}`), params: { max: SEGMENT_LIMITS.listSize } });
    expect(refusal(`x in (${"1,".repeat(1_900)}1)`).code).toBe("segment_list_too_long");
    expect(refusal(`x in (${"1,".repeat(100_000)}1)`).code).toBe("segment_too_long");
  });
});

describe("text and JSON", () => {
  const cases = [
    "plano = premium e idade >= 18 ou não tem optout",
    "bairro in (Centro, Cambuí, 3) e não (canal = obras ou site in (1, 2))",
    "(tem a ou tem b) e (tem c ou (tem d e tem e2))",
    "visita há mais de 30 dias e clique há menos de 1 semana e inscrito antes de 2026-01-01 e inscrito depois de 2025-01-01T00:00-03:00",
    'apelido = "diz \\"oi\\"" e x != "18" e y = 18 e z = "São Paulo" e w = 01310',
    "etiqueta canal = obras e tem etiqueta e e navegador in (firefox) e fuso = America/Sao_Paulo e identificado",
    "plataforma não em (ios, android) e não não tem x",
  ];

  it.each(cases)("%s: the canonical text reads back as the same tree", (text) => {
    const parsed = tree(text);
    expect(tree(formatSegment(parsed))).toEqual(parsed);
    expect(formatSegment(tree(formatSegment(parsed)))).toBe(formatSegment(parsed));
  });

  it.each(cases)("%s: the JSON tree gives the same tree as the text", (text) => {
    const parsed = tree(text);
    const viaJson = resolveExpression(JSON.parse(JSON.stringify(parsed)) as SegmentNode);
    expect(viaJson).toEqual({ ok: true, tree: parsed });
  });

  it("writes the canonical text", () => {
    expect(formatSegment(tree("plano=premium E idade>=18 OU NAO tem optout"))).toBe("(plano = premium e idade >= 18) ou não tem optout");
    expect(formatSegment(tree("não (a = 1 ou b in (x,y))"))).toBe("não (a = 1 ou b in (x, y))");
    expect(formatSegment({ tag: "x", op: "eq", value: "18" })).toBe('x = "18"');
    expect(formatSegment({ tag: "x", op: "eq", value: "a b" })).toBe('x = "a b"');
  });

  it("normalises a JSON tree the text form cannot write", () => {
    expect(resolveExpression({ and: [{ or: [vip] }] })).toEqual({ ok: true, tree: vip });
    expect(resolveExpression({ field: "browser", op: "in", values: ["Firefox"] })).toEqual({ ok: true, tree: { field: "browser", op: "in", values: ["firefox"] } });
  });
});

describe("segmentTreeSchema", () => {
  const refuse = (input: unknown) => {
    const result = resolveExpression(input as SegmentNode);
    if (result.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
    return result.error;
  };

  it("refuses shapes that are not expressions", () => {
    for (const input of [null, 3, "x", [], {}, { tag: "x" }, { tag: "x", op: "like", value: "a" }, { tag: "X", op: "exists" }, { and: [] }, { and: [vip], or: [vip] }, { not: [vip] }, { tag: "x", op: "exists", extra: 1 }, { field: "country", op: "eq", value: "br" }]) {
      if (typeof input === "string") continue;
      expect(refuse(input).code, JSON.stringify(input)).toBe("segment_syntax");
    }
  });

  it("applies the value rules of the text form", () => {
    expect(refuse({ tag: "idade", op: "gt", value: "abc" })).toMatchObject({ code: "segment_value_invalid", position: -1, reason: "segments:value.orderNeedsNumberOrDate" });
    expect(refuse({ tag: "x", op: "eq", value: 1e21 })).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.number" });
    expect(refuse({ tag: "x", op: "eq", value: "" })).toMatchObject({ code: "segment_value_invalid" });
    expect(refuse({ tag: "x", op: "eq", value: "a\u0000" })).toMatchObject({ code: "segment_value_invalid" });
    expect(refuse({ field: "site", op: "eq", value: "1" })).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.site" });
    expect(refuse({ field: "channel", op: "eq", value: 3 })).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.text" });
    expect(refuse({ field: "subscribedAt", op: "before", value: "ontem" })).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.date" });
    expect(refuse({ field: "lastSeenAt", op: "within", amount: 0, unit: "days" })).toMatchObject({ code: "segment_value_invalid", reason: "segments:value.amount" });
    expect(refuse({ tag: "x", op: "in", values: [] })).toMatchObject({ code: "segment_syntax" });
  });

  it("applies every limit, and survives hostile trees", () => {
    let deep: SegmentNode = vip;
    for (let i = 0; i < SEGMENT_LIMITS.depth; i++) deep = { not: deep };
    expect(resolveExpression(deep).ok).toBe(true);
    expect(refuse({ not: deep })).toMatchObject({ code: "segment_too_deep", position: -1, reason: "segments:limits.tooDeep" });
    let hostile: SegmentNode = vip;
    for (let i = 0; i < 100_000; i++) hostile = i % 2 ? { not: hostile } : { and: [hostile, vip] };
    expect(refuse(hostile).code).toBe("segment_too_deep");
    expect(refuse({ and: Array.from({ length: SEGMENT_LIMITS.conditions + 1 }, () => vip) }).code).toBe("segment_too_many_conditions");
    expect(refuse({ and: Array.from({ length: 1_000_000 }, () => vip) }).code).toBe("segment_too_many_conditions");
    expect(refuse({ tag: "x", op: "in", values: Array.from({ length: SEGMENT_LIMITS.listSize + 1 }, (_, i) => i) }).code).toBe("segment_list_too_long");
    expect(refuse({ field: "channel", op: "in", values: Array.from({ length: 100_000 }, () => "a") }).code).toBe("segment_list_too_long");
    expect(resolveExpression({ tag: "x", op: "in", values: Array.from({ length: SEGMENT_LIMITS.listSize }, (_, i) => i) }).ok).toBe(true);
  });

  it("reports codes as messages, for a route's validation", () => {
    const result = segmentTreeSchema.safeParse({ tag: "idade", op: "gt", value: "abc" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("segment_value_invalid");
  });
});
