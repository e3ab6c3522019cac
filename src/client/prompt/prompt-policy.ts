/**
 * The optional soft prompt (issue 9): a pt-BR question in the page before the browser's own
 * permission dialog. These are its rules, shared by the script-tag bell and `<SinoBell />`.
 */
export interface SoftPromptConfig {
  /** Show the prompt from the visitor's Nth visit (a visit = a browser session on the site). */
  visits: number;
  /** …and only after this many seconds on the page. */
  delaySeconds: number;
  /** "Agora não" hides it for this many days. */
  backoffDays: number;
}

export const DEFAULT_SOFT_PROMPT: SoftPromptConfig = { visits: 1, delaySeconds: 0, backoffDays: 7 };

/**
 * A complete configuration from a site's partial one (data attributes, React props): a missing,
 * non-finite or too small value (visits < 1, a negative delay or backoff) takes the default.
 */
export function softPromptConfig(given: { readonly [K in keyof SoftPromptConfig]?: number | undefined } = {}): SoftPromptConfig {
  const pick = (value: number | undefined, fallback: number, min: number) =>
    value !== undefined && Number.isFinite(value) && value >= min ? value : fallback;
  return {
    visits: pick(given.visits, DEFAULT_SOFT_PROMPT.visits, 1),
    delaySeconds: pick(given.delaySeconds, DEFAULT_SOFT_PROMPT.delaySeconds, 0),
    backoffDays: pick(given.backoffDays, DEFAULT_SOFT_PROMPT.backoffDays, 0),
  };
}

/** What the soft prompt remembers on the site's origin (localStorage), across visits. */
export interface PromptMemory {
  visits: number;
  /** Epoch ms of the last "Agora não"; null if never. */
  dismissedAt: number | null;
}

export const PROMPT_STORAGE_KEY = "sino:soft-prompt";
/** Marks the browser session as counted (sessionStorage): one visit per session, not per page. */
export const VISIT_SESSION_KEY = "sino:visit-counted";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Storage that may throw (disabled cookies, Safari's private mode) or be absent. */
export type MaybeStorage = Pick<Storage, "getItem" | "setItem"> | null;

export function readPromptMemory(storage: MaybeStorage): PromptMemory {
  try {
    const raw = storage?.getItem(PROMPT_STORAGE_KEY);
    const value = raw ? (JSON.parse(raw) as Partial<PromptMemory>) : {};
    return {
      visits: typeof value.visits === "number" && value.visits >= 0 ? value.visits : 0,
      dismissedAt: typeof value.dismissedAt === "number" ? value.dismissedAt : null,
    };
  } catch {
    return { visits: 0, dismissedAt: null };
  }
}

function writePromptMemory(storage: MaybeStorage, memory: PromptMemory): void {
  try {
    storage?.setItem(PROMPT_STORAGE_KEY, JSON.stringify(memory));
  } catch {
    // Storage refused: the prompt simply forgets, which errs towards asking less (see shouldOffer).
  }
}

/** Counts this visit once per browser session; returns the memory after counting. */
export function recordVisit(local: MaybeStorage, session: MaybeStorage): PromptMemory {
  const memory = readPromptMemory(local);
  try {
    if (session?.getItem(VISIT_SESSION_KEY) === "1") return memory;
    session?.setItem(VISIT_SESSION_KEY, "1");
  } catch {
    return memory;
  }
  const counted = { ...memory, visits: memory.visits + 1 };
  writePromptMemory(local, counted);
  return counted;
}

/** "Agora não": remember when, so the prompt stays away for `backoffDays`. */
export function recordDismissal(local: MaybeStorage, now: number): void {
  writePromptMemory(local, { ...readPromptMemory(local), dismissedAt: now });
}

/**
 * Whether the soft prompt may be offered now. Only to a visitor the browser has never asked
 * (permission "default") whose bell is off: the native dialog then comes only after a "yes" here,
 * and Chrome's quiet-UI heuristics never see a prompt nobody wanted.
 */
export function shouldOfferPrompt(
  config: SoftPromptConfig,
  memory: PromptMemory,
  now: number,
  page: { status: string; permission: NotificationPermission | "unsupported" },
): boolean {
  if (page.status !== "off" || page.permission !== "default") return false;
  if (memory.visits < config.visits) return false;
  if (memory.dismissedAt !== null && now - memory.dismissedAt < config.backoffDays * DAY_MS) return false;
  return true;
}
