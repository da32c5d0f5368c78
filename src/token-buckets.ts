/** A rate: `perSecond` tokens come back each second, up to `burst` held at once. */
export interface TokenRate {
  perSecond: number
  burst: number
}

interface Bucket {
  tokens: number
  at: number
}

/**
 * The one token-bucket rate limiter: a bucket per key (a tenant and a quota class, a caller
 * and a tool), full at first. Hosts decide the keys and the error; this only counts.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes one token from the key's bucket: undefined when taken, else the whole seconds until one is back. */
  take(key: string, rate: TokenRate): number | undefined {
    const now = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: rate.burst, at: now }
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.perSecond)
    bucket.at = now
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return undefined
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate.perSecond))
  }
}
