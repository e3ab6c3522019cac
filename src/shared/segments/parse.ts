import { checkTree, conditionProblem, normalizeTree, SEGMENT_MAX_AMOUNT, textProblem } from "./check.js";
import { tokenize, type Token } from "./lex.js";
import { segmentError, type SegmentError, type SegmentResult } from "./segment-error.js";
import { SEGMENT_LIMITS, type SegmentCondition, type SegmentListField, type SegmentNode, type SegmentTimeField, type SegmentTimeUnit, type SegmentValue } from "./tree.js";
import { TAG_KEY_PATTERN } from "../api/tag-rule.js";
import { decimalNumber } from "./values.js";

/**
 * The text form of a segment, read into the tree of tree.ts.
 *
 *     expression := or
 *     or         := and { ("ou" | "or") and }
 *     and        := not { ("e" | "and") not }
 *     not        := ("não" | "nao" | "not") not | "(" or ")" | condition
 *     condition  := "tem" ["etiqueta"] KEY                        exists
 *                 | ["etiqueta" | "tag"] KEY tagTest               KEY not a reserved word unless after etiqueta
 *                 | listField (("=" | "!=" | "<>") value | ["não"] ("in" | "em") list)
 *                 | timeField ("antes" | "depois") "de" DATE
 *                 | timeField ("há" | "ha") ("mais" | "menos") "de" N unit
 *                 | "identificado"
 *     tagTest    := ("=" | "!=" | "<>" | ">" | ">=" | "<" | "<=") value | ["não" | "not"] ("in" | "em") list
 *     list       := "(" value { "," value } ")"
 *
 * Keywords ignore case and accents. `KEY != V` holds when the tag is present with another value
 * (a missing tag never matches `!=`; write `não KEY = V` for "not V, or no such tag"); on a field,
 * `!=` is `não … =`. `KEY não in (…)` is `não (KEY in (…))`.
 */

const OR = new Set(["ou", "or"]);
const AND = new Set(["e", "and"]);
const NOT = new Set(["nao", "not"]);
const IN = new Set(["in", "em"]);
const TAG_WORDS = new Set(["etiqueta", "tag"]);
const LIST_FIELDS: Readonly<Record<string, SegmentListField>> = { canal: "channel", site: "site", fuso: "timeZone", navegador: "browser", plataforma: "platform" };
const TIME_FIELDS: Readonly<Record<string, SegmentTimeField>> = { inscrito: "subscribedAt", visita: "lastSeenAt", clique: "lastClickedAt" };
const UNITS: Readonly<Record<string, SegmentTimeUnit>> = { hora: "hours", horas: "hours", dia: "days", dias: "days", semana: "weeks", semanas: "weeks" };
const ORDER_OPS = { ">": "gt", ">=": "gte", "<": "lt", "<=": "lte" } as const;

/** Words a bare tag key may not be (folded); such a tag is written `etiqueta KEY`. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([...OR, ...AND, ...NOT, ...IN, ...TAG_WORDS, "tem", "identificado", ...Object.keys(LIST_FIELDS), ...Object.keys(TIME_FIELDS)]);

class Refusal {
  constructor(readonly error: SegmentError) {}
}

export function parseSegment(text: string): SegmentResult<SegmentNode> {
  if (text.length > SEGMENT_LIMITS.textLength) {
    return { ok: false, error: segmentError("segment_too_long", SEGMENT_LIMITS.textLength, "segments:limits.tooLong", { max: SEGMENT_LIMITS.textLength }) };
  }
  const lexed = tokenize(text);
  if (!lexed.ok) return lexed;
  try {
    return new Parser(lexed.tokens).parse();
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.error };
    throw error;
  }
}

class Parser {
  private index = 0;
  private nesting = 0;
  private conditions = 0;
  /** Where each node starts in the text, for the checks made once the tree is whole. */
  private readonly positions = new WeakMap<SegmentNode, number>();

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): SegmentResult<SegmentNode> {
    if (this.peek().kind === "end") this.fail("segment_syntax", this.peek().pos, "segments:syntax.empty");
    const tree = this.parseOr();
    const next = this.peek();
    if (next.kind === ")") this.fail("segment_syntax", next.pos, "segments:syntax.unopenedParen");
    if (next.kind !== "end") this.fail("segment_syntax", next.pos, "segments:syntax.expectedAndOr");
    const error = checkTree(tree, (node) => this.positions.get(node) ?? -1);
    if (error) return { ok: false, error };
    return { ok: true, tree: normalizeTree(tree) };
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== "end") this.index++;
    return token;
  }

  private isWord(token: Token, words: ReadonlySet<string>): boolean {
    return token.kind === "word" && words.has(token.folded);
  }

  private fail(code: SegmentError["code"], position: number, reason: string, params?: Record<string, string | number>): never {
    throw new Refusal(segmentError(code, position, reason, params));
  }

  private at<T extends SegmentNode>(node: T, pos: number): T {
    this.positions.set(node, pos);
    return node;
  }

  /** One more level of parentheses or `não`: refused past the limit, before recursing any deeper. */
  private enter(pos: number): void {
    this.nesting++;
    if (this.nesting > SEGMENT_LIMITS.depth) this.fail("segment_too_deep", pos, "segments:limits.tooDeep", { max: SEGMENT_LIMITS.depth });
  }

  private parseOr(): SegmentNode {
    const start = this.peek().pos;
    const children = [this.parseAnd()];
    while (this.isWord(this.peek(), OR)) {
      this.next();
      children.push(this.parseAnd());
    }
    return children.length === 1 ? (children[0] as SegmentNode) : this.at({ or: children }, start);
  }

  private parseAnd(): SegmentNode {
    const start = this.peek().pos;
    const children = [this.parseNot()];
    while (this.isWord(this.peek(), AND)) {
      this.next();
      children.push(this.parseNot());
    }
    return children.length === 1 ? (children[0] as SegmentNode) : this.at({ and: children }, start);
  }

  private parseNot(): SegmentNode {
    const token = this.peek();
    if (this.isWord(token, NOT)) {
      this.next();
      this.enter(token.pos);
      const child = this.parseNot();
      this.nesting--;
      return this.at({ not: child }, token.pos);
    }
    if (token.kind === "(") {
      this.next();
      this.enter(token.pos);
      const inner = this.parseOr();
      const close = this.peek();
      if (close.kind !== ")") this.fail("segment_syntax", close.pos, close.kind === "end" ? "segments:syntax.unclosedParen" : "segments:syntax.expectedCloseParen");
      this.next();
      this.nesting--;
      return inner;
    }
    return this.parseCondition();
  }

  private parseCondition(): SegmentNode {
    const token = this.next();
    if (token.kind === "end") this.fail("segment_syntax", token.pos, "segments:syntax.unexpectedEnd");
    if (token.kind !== "word") this.fail("segment_syntax", token.pos, "segments:syntax.expectedCondition");
    this.conditions++;
    if (this.conditions > SEGMENT_LIMITS.conditions) this.fail("segment_too_many_conditions", token.pos, "segments:limits.tooManyConditions", { max: SEGMENT_LIMITS.conditions });

    const word = token.folded;
    if (word === "tem") {
      const key = this.readKey(this.isWord(this.peek(), TAG_WORDS) ? (this.next(), true) : false);
      return this.at({ tag: key, op: "exists" }, token.pos);
    }
    if (word === "identificado") return this.at({ field: "identified" }, token.pos);
    if (TAG_WORDS.has(word)) return this.tagTest(this.readKey(true), token.pos);
    const listField = LIST_FIELDS[word];
    if (listField !== undefined) return this.listFieldTest(listField, token);
    const timeField = TIME_FIELDS[word];
    if (timeField !== undefined) return this.timeFieldTest(timeField, token);
    this.index--;
    return this.tagTest(this.readKey(false), token.pos);
  }

  /** A tag key: a bare word matching the tag key rule, lowercased; a reserved word only after `etiqueta`. */
  private readKey(afterTagWord: boolean): string {
    const token = this.next();
    if (token.kind === "end") this.fail("segment_syntax", token.pos, "segments:syntax.expectedKey");
    if (token.kind !== "word") this.fail("segment_syntax", token.pos, "segments:syntax.expectedKey");
    if (!afterTagWord && RESERVED_WORDS.has(token.folded)) this.fail("segment_syntax", token.pos, "segments:syntax.reservedWord", { word: token.text });
    const key = token.text.toLowerCase();
    if (!TAG_KEY_PATTERN.test(key)) this.fail("segment_syntax", token.pos, "segments:syntax.invalidKey", { key: token.text.slice(0, 80) });
    return key;
  }

  private tagTest(tag: string, pos: number): SegmentNode {
    const token = this.peek();
    if (token.kind === "op") {
      this.next();
      const valueToken = this.peek();
      const value = this.readValue();
      if (token.text === "=") return this.checked({ tag, op: "eq", value }, pos, valueToken.pos);
      if (token.text === "!=" || token.text === "<>") return this.checked({ tag, op: "ne", value }, pos, valueToken.pos);
      return this.checked({ tag, op: ORDER_OPS[token.text], value }, pos, valueToken.pos);
    }
    const negated = this.isWord(token, NOT) && this.isWord(this.peek(1), IN);
    if (negated) this.next();
    if (this.isWord(this.peek(), IN)) {
      this.next();
      const condition = this.at({ tag, op: "in" as const, values: this.readList() }, pos);
      return negated ? this.at({ not: condition }, token.pos) : condition;
    }
    return this.fail("segment_syntax", token.pos, "segments:syntax.expectedOperator", { key: tag });
  }

  private listFieldTest(field: SegmentListField, fieldToken: Token & { kind: "word" }): SegmentNode {
    const token = this.peek();
    const convert = (value: SegmentValue, raw: string, pos: number): string | number => {
      if (field === "site") {
        if (typeof value === "number" && Number.isSafeInteger(value) && value >= 1) return value;
        return this.fail("segment_value_invalid", pos, "segments:value.site");
      }
      return field === "timeZone" ? raw : raw.toLowerCase();
    };
    if (token.kind === "op" && (token.text === "=" || token.text === "!=" || token.text === "<>")) {
      this.next();
      const valueToken = this.peek();
      const value = this.readValue();
      const condition = this.checked({ field, op: "eq", value: convert(value, rawText(valueToken), valueToken.pos) }, fieldToken.pos, valueToken.pos);
      return token.text === "=" ? condition : this.at({ not: condition }, fieldToken.pos);
    }
    const negated = this.isWord(token, NOT) && this.isWord(this.peek(1), IN);
    if (negated) this.next();
    if (this.isWord(this.peek(), IN)) {
      this.next();
      const values: (string | number)[] = [];
      this.readList((value, valueToken) => values.push(convert(value, rawText(valueToken), valueToken.pos)));
      const condition = this.at({ field, op: "in" as const, values }, fieldToken.pos);
      return negated ? this.at({ not: condition }, token.pos) : condition;
    }
    return this.fail("segment_syntax", token.pos, "segments:syntax.fieldOperator", { field: fieldToken.text });
  }

  private timeFieldTest(field: SegmentTimeField, fieldToken: Token & { kind: "word" }): SegmentNode {
    const token = this.next();
    const word = token.kind === "word" ? token.folded : "";
    if (word === "antes" || word === "depois") {
      this.expectWord("de");
      const valueToken = this.peek();
      const value = this.readValue();
      return this.checked({ field, op: word === "antes" ? "before" : "after", value: rawText(valueToken) || String(value) }, fieldToken.pos, valueToken.pos);
    }
    if (word === "ha") {
      const which = this.next();
      const kind = which.kind === "word" ? which.folded : "";
      if (kind !== "mais" && kind !== "menos") this.fail("segment_syntax", which.pos, "segments:syntax.expectedMoreLess");
      this.expectWord("de");
      const amountToken = this.next();
      const amount = amountToken.kind === "word" ? decimalNumber(amountToken.text) : null;
      if (amount === null || !Number.isInteger(amount) || amount < 1 || amount > SEGMENT_MAX_AMOUNT) {
        this.fail(amountToken.kind === "word" ? "segment_value_invalid" : "segment_syntax", amountToken.pos, amountToken.kind === "word" ? "segments:value.amount" : "segments:syntax.expectedAmount", { max: SEGMENT_MAX_AMOUNT });
      }
      const unitToken = this.next();
      const unit = unitToken.kind === "word" ? UNITS[unitToken.folded] : undefined;
      if (unit === undefined) this.fail("segment_syntax", unitToken.pos, "segments:syntax.expectedUnit");
      return this.at({ field, op: kind === "mais" ? "olderThan" : "within", amount, unit }, fieldToken.pos);
    }
    return this.fail("segment_syntax", token.pos, "segments:syntax.expectedTimeTest", { field: fieldToken.text });
  }

  private expectWord(word: string): void {
    const token = this.next();
    if (token.kind !== "word" || token.folded !== word) this.fail("segment_syntax", token.pos, "segments:syntax.expectedWord", { word });
  }

  /** A value: a bare word (a plain decimal is a number) or a quoted string (always text). */
  private readValue(): SegmentValue {
    const token = this.next();
    if (token.kind === "word") {
      const problem = textProblem(token.text);
      if (problem) this.fail("segment_value_invalid", token.pos, problem.reason, problem.params);
      return decimalNumber(token.text) ?? token.text;
    }
    if (token.kind === "string") {
      const problem = textProblem(token.text);
      if (problem) this.fail("segment_value_invalid", token.pos, problem.reason, problem.params);
      return token.text;
    }
    return this.fail("segment_syntax", token.pos, token.kind === "end" ? "segments:syntax.unexpectedEnd" : "segments:syntax.expectedValue");
  }

  /** `( value, value, … )`, refused past SEGMENT_LIMITS.listSize values at the first one too many. */
  private readList(each?: (value: SegmentValue, token: Token) => void): SegmentValue[] {
    const open = this.next();
    if (open.kind !== "(") this.fail("segment_syntax", open.pos, "segments:syntax.expectedList");
    const values: SegmentValue[] = [];
    for (;;) {
      const token = this.peek();
      if (values.length === SEGMENT_LIMITS.listSize) this.fail("segment_list_too_long", token.pos, "segments:limits.listTooLong", { max: SEGMENT_LIMITS.listSize });
      const value = this.readValue();
      values.push(value);
      each?.(value, token);
      const separator = this.next();
      if (separator.kind === ")") return values;
      if (separator.kind !== ",") this.fail("segment_syntax", separator.pos, "segments:syntax.expectedCommaOrClose");
    }
  }

  /** A condition whose value rules (check.ts) are reported at the value's position. */
  private checked<T extends SegmentCondition>(condition: T, pos: number, valuePos: number): T {
    const problem = conditionProblem(condition);
    if (problem) this.fail(problem.code, valuePos, problem.reason, problem.params);
    return this.at(condition, pos);
  }
}

function rawText(token: Token): string {
  return token.kind === "word" || token.kind === "string" ? token.text : "";
}
