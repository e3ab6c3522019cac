/**
 * How the fake push service answers. A rule applies to one subscription id or to all, forever or
 * for the next `times` matching requests. Lookup order: id rules before global ones, and within
 * each, counted rules ("the next K requests") before standing ones, oldest first.
 */
export type FakeAction =
  /** 201 Created (or 202), the normal answer. */
  | { readonly kind: "accept"; readonly status?: 201 | 202 }
  /** Any status, e.g. 404/410 gone, 413, 429/503 with Retry-After, 500/502. */
  | { readonly kind: "status"; readonly status: number; readonly retryAfter?: number | string }
  /** Never answer: the request stays open until the client gives up or the service closes. */
  | { readonly kind: "hang" }
  /** Reset this request: RST_STREAM on HTTP/2, the TCP connection on HTTP/1.1. */
  | { readonly kind: "reset" }
  /** Destroy the whole connection (every HTTP/2 stream on it). */
  | { readonly kind: "reset-connection" }
  /** Answer `status` and then stream a body that never ends (tests the client's body cap). */
  | { readonly kind: "endless-body"; readonly status?: number };

export interface BehaviourRule {
  /** Only requests for this subscription id; all ids when absent. */
  readonly id?: string;
  /** Only the next `times` matching requests; forever when absent. */
  readonly times?: number;
  /** Delay before acting, in ms: `latencyMs` plus a uniform random 0..`jitterMs`. */
  readonly latencyMs?: number;
  readonly jitterMs?: number;
  /** Accept when absent (so a rule can add latency only). */
  readonly action?: FakeAction;
}

export interface ChosenBehaviour {
  readonly delayMs: number;
  readonly action: FakeAction;
}

const ACCEPT: FakeAction = { kind: "accept" };
/** The answer when no rule applies: shared, since it is read-only. */
const PLAIN_ACCEPT: ChosenBehaviour = { delayMs: 0, action: ACCEPT };

interface LiveRule {
  readonly rule: BehaviourRule;
  remaining: number;
}

export function createBehaviourBook(random: () => number = Math.random) {
  let rules: LiveRule[] = [];

  function add(rule: BehaviourRule): void {
    validateRule(rule);
    rules.push({ rule, remaining: rule.times ?? Number.POSITIVE_INFINITY });
  }

  function pick(id: string): LiveRule | undefined {
    let best: LiveRule | undefined;
    let bestRank = Number.POSITIVE_INFINITY;
    for (const live of rules) {
      if (live.rule.id !== undefined && live.rule.id !== id) continue;
      const rank = (live.rule.id === undefined ? 2 : 0) + (live.rule.times === undefined ? 1 : 0);
      if (rank < bestRank) {
        best = live;
        bestRank = rank;
        if (rank === 0) break;
      }
    }
    return best;
  }

  /** The behaviour for one request to `id`; consumes one use of a counted rule. */
  function choose(id: string): ChosenBehaviour {
    if (rules.length === 0) return PLAIN_ACCEPT;
    const live = pick(id);
    if (live === undefined) return PLAIN_ACCEPT;
    live.remaining -= 1;
    if (live.remaining <= 0) rules = rules.filter((r) => r !== live);
    const { latencyMs = 0, jitterMs = 0, action = ACCEPT } = live.rule;
    return { delayMs: latencyMs + (jitterMs > 0 ? random() * jitterMs : 0), action };
  }

  function clear(): void {
    rules = [];
  }

  function list(): BehaviourRule[] {
    return rules.map((r) => ({ ...r.rule, ...(r.rule.times === undefined ? {} : { times: r.remaining }) }));
  }

  return { add, choose, clear, list };
}

export type BehaviourBook = ReturnType<typeof createBehaviourBook>;

/** Rules also arrive as JSON over the admin routes: refuse nonsense loudly. */
export function validateRule(rule: BehaviourRule): void {
  const bad = (why: string): never => {
    throw new TypeError(`invalid fake push behaviour: ${why}`);
  };
  if (rule.id !== undefined && typeof rule.id !== "string") bad("id must be a string");
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times > 0)) bad("times must be a positive integer");
  for (const k of ["latencyMs", "jitterMs"] as const) {
    const v = rule[k];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && Number.isFinite(v))) bad(`${k} must be >= 0`);
  }
  const action = rule.action;
  if (action === undefined) return;
  switch (action.kind) {
    case "accept":
      if (action.status !== undefined && action.status !== 201 && action.status !== 202) bad("accept status is 201 or 202");
      return;
    case "status":
      if (!Number.isInteger(action.status) || action.status < 200 || action.status > 599) bad("status must be 200..599");
      return;
    case "endless-body":
      if (action.status !== undefined && (!Number.isInteger(action.status) || action.status < 200 || action.status > 599)) bad("status must be 200..599");
      return;
    case "hang":
    case "reset":
    case "reset-connection":
      return;
    default:
      bad(`unknown action ${JSON.stringify(action)}`);
  }
}
