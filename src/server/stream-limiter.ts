export interface StreamLimits {
  /** Open streams this process keeps at most, from everyone together. */
  readonly maxTotal: number;
  /** Open streams one client address may hold at once. */
  readonly maxPerAddress: number;
}

export type StreamSlot = { readonly ok: true; release(): void } | { readonly ok: false; readonly reason: "address" | "total" };

export interface StreamLimiter {
  acquire(address: string): StreamSlot;
  /** Open streams now (all addresses). */
  readonly open: number;
}

/**
 * Caps public long-lived streams (Server-Sent Events): each holds a socket and a listener for as
 * long as the client likes, so without a cap one address could open thousands and exhaust the
 * server's sockets and memory. Per address first (a greedy client is told to back off), then in
 * total (the server is full).
 */
export function createStreamLimiter(limits: StreamLimits): StreamLimiter {
  const perAddress = new Map<string, number>();
  let open = 0;
  return {
    get open() {
      return open;
    },
    acquire(address) {
      const mine = perAddress.get(address) ?? 0;
      if (mine >= limits.maxPerAddress) return { ok: false, reason: "address" };
      if (open >= limits.maxTotal) return { ok: false, reason: "total" };
      perAddress.set(address, mine + 1);
      open++;
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          open--;
          const left = (perAddress.get(address) ?? 1) - 1;
          if (left === 0) perAddress.delete(address);
          else perAddress.set(address, left);
        },
      };
    },
  };
}
