import type { LoginAttemptsRepository } from "../../store/login-attempts-repository.js";

/** How one counter (an account, or a client address) is throttled. */
export interface ThrottleRule {
  /** Failures after which each new attempt is answered more slowly. */
  readonly slowAfter: number;
  /** Failures after which attempts are refused (429) for `lockMs`. */
  readonly lockAfter: number;
  readonly lockMs: number;
}

export interface ThrottlePolicy {
  readonly account: ThrottleRule;
  /** Looser than per account: many honest people may share one address (an office NAT). */
  readonly address: ThrottleRule;
  /** Failures older than this are forgotten. */
  readonly windowMs: number;
  /** The first slowed attempt waits this long; each further failure doubles it, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * OWASP Authentication Cheat Sheet: throttle per account and per source, lock temporarily
 * rather than for good (a permanent lock lets anyone lock out anyone).
 */
export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  account: { slowAfter: 3, lockAfter: 10, lockMs: 15 * 60_000 },
  address: { slowAfter: 10, lockAfter: 50, lockMs: 15 * 60_000 },
  windowMs: 15 * 60_000,
  baseDelayMs: 250,
  maxDelayMs: 4000,
};

export type ThrottleVerdict =
  | { readonly allowed: true; /** Wait this long before answering. */ readonly delayMs: number }
  | { readonly allowed: false; /** Seconds, for Retry-After. */ readonly retryAfterSeconds: number };

export interface LoginThrottle {
  check(email: string, address: string): Promise<ThrottleVerdict>;
  recordFailure(email: string, address: string): Promise<void>;
  /** A successful sign-in clears the account's count (not the address's: one good account must not reset a guesser's budget). */
  recordSuccess(email: string): Promise<void>;
}

export interface LoginThrottleDeps {
  readonly attempts: LoginAttemptsRepository;
  readonly now: () => number;
  readonly policy?: ThrottlePolicy;
}

export function createLoginThrottle(deps: LoginThrottleDeps): LoginThrottle {
  const policy = deps.policy ?? DEFAULT_THROTTLE_POLICY;
  const accountKey = (email: string) => `account:${email}`;
  const addressKey = (address: string) => `address:${address}`;

  function delayFor(failures: number, rule: ThrottleRule): number {
    if (failures < rule.slowAfter) return 0;
    return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - rule.slowAfter));
  }

  return {
    async check(email, address) {
      const now = deps.now();
      const keys = [accountKey(email), addressKey(address)] as const;
      const states = await deps.attempts.get(keys);
      const lockedUntil = Math.max(...keys.map((k) => states.get(k)?.lockedUntil ?? 0));
      if (lockedUntil > now) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) };
      const recent = (key: string) => {
        const state = states.get(key);
        return state !== undefined && state.lastFailureAt >= now - policy.windowMs ? state.failures : 0;
      };
      const delayMs = Math.max(delayFor(recent(keys[0]), policy.account), delayFor(recent(keys[1]), policy.address));
      return { allowed: true, delayMs };
    },

    async recordFailure(email, address) {
      const now = deps.now();
      const windowStart = now - policy.windowMs;
      for (const [key, rule] of [
        [accountKey(email), policy.account],
        [addressKey(address), policy.address],
      ] as const) {
        const failures = await deps.attempts.recordFailure(key, now, windowStart);
        if (failures >= rule.lockAfter) await deps.attempts.lockUntil(key, now + rule.lockMs);
      }
    },

    async recordSuccess(email) {
      await deps.attempts.reset(accountKey(email));
    },
  };
}
