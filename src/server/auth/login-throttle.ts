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
  | { readonly allowed: true; /** Wait this long before checking the password. */ readonly delayMs: number }
  | { readonly allowed: false; /** Seconds, for Retry-After. */ readonly retryAfterSeconds: number };

export interface LoginThrottle {
  /**
   * Counts this attempt against the account and the address, atomically and before the password
   * is checked, and says whether it may be checked: of N concurrent guesses, at most the limit
   * are ever verified (counting after verifying let all N through while the first were checked).
   */
  begin(email: string, address: string): Promise<ThrottleVerdict>;
  /**
   * A successful sign-in clears the account's count and takes this attempt back from the
   * address's (not the whole count: one good account must not reset a guesser's budget).
   */
  succeeded(email: string, address: string): Promise<void>;
  /** Forgets the account's failed attempts (and lifts its lock): its password was just reset. */
  clearAccount(email: string): Promise<void>;
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

  /** The delay for an attempt that follows `earlier` counted attempts. */
  function delayFor(earlier: number, rule: ThrottleRule): number {
    if (earlier < rule.slowAfter) return 0;
    return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (earlier - rule.slowAfter));
  }

  return {
    async begin(email, address) {
      const now = deps.now();
      const counters = [
        [accountKey(email), policy.account],
        [addressKey(address), policy.address],
      ] as const;
      let delayMs = 0;
      let refusedUntil = 0;
      for (const [key, rule] of counters) {
        const counted = await deps.attempts.countAttempt(key, {
          now,
          windowStart: now - policy.windowMs,
          lockAfter: rule.lockAfter,
          lockUntil: now + rule.lockMs,
        });
        // The attempt that reaches the limit is still checked (it sets the lock); any later one
        // is refused until the lock runs out.
        if (counted.attempts > rule.lockAfter) refusedUntil = Math.max(refusedUntil, counted.lockedUntil, now + 1000);
        delayMs = Math.max(delayMs, delayFor(counted.attempts - 1, rule));
      }
      if (refusedUntil > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((refusedUntil - now) / 1000)) };
      return { allowed: true, delayMs };
    },

    async succeeded(email, address) {
      await deps.attempts.reset(accountKey(email));
      await deps.attempts.forgiveAttempt(addressKey(address));
    },

    async clearAccount(email) {
      await deps.attempts.reset(accountKey(email));
    },
  };
}
