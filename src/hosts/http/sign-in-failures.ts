/** How failed sign-ins slow an address down: this many are free, then each doubles the wait, up to the longest. */
export interface SignInBackoff {
  freeFailures: number
  firstWaitMs: number
  longestWaitMs: number
  /** An address with no failure for this long starts over. */
  forgetAfterMs: number
  /** Addresses remembered at once; beyond it the one remembered longest is forgotten (a caller spraying addresses costs memory, not a lockout). */
  maxAddresses: number
}

export const defaultSignInBackoff: SignInBackoff = {
  freeFailures: 5,
  firstWaitMs: 1_000,
  longestWaitMs: 5 * 60_000,
  forgetAfterMs: 15 * 60_000,
  maxAddresses: 10_000,
}

interface Failures {
  count: number
  lastAt: number
}

/**
 * Wrong keys posted to the sign-in form, per client address: after `freeFailures` of them the
 * address must wait before its next key is even checked (1 s, then 2, 4, ... up to 5 min), so
 * guessing keys from one address is slowed to a crawl. A right key clears the address.
 */
export class SignInFailures {
  private readonly failures = new Map<string, Failures>()

  constructor(
    private readonly backoff: SignInBackoff = defaultSignInBackoff,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The whole seconds `address` must wait before it may try a key, or undefined when it may now. */
  waitSeconds(address: string): number | undefined {
    const seen = this.remembered(address)
    if (seen === undefined || seen.count < this.backoff.freeFailures) return undefined
    const waitMs = Math.min(this.backoff.longestWaitMs, this.backoff.firstWaitMs * 2 ** (seen.count - this.backoff.freeFailures))
    const leftMs = seen.lastAt + waitMs - this.now()
    return leftMs > 0 ? Math.ceil(leftMs / 1000) : undefined
  }

  failed(address: string): void {
    const count = (this.remembered(address)?.count ?? 0) + 1
    this.failures.delete(address)
    this.failures.set(address, { count, lastAt: this.now() })
    if (this.failures.size > this.backoff.maxAddresses) {
      const oldest = this.failures.keys().next().value
      if (oldest !== undefined) this.failures.delete(oldest)
    }
  }

  succeeded(address: string): void {
    this.failures.delete(address)
  }

  private remembered(address: string): Failures | undefined {
    const seen = this.failures.get(address)
    if (seen !== undefined && this.now() - seen.lastAt > this.backoff.forgetAfterMs) {
      this.failures.delete(address)
      return undefined
    }
    return seen
  }
}
