import { z } from 'zod'
import { quotasSchema } from '../../config/schema.js'
import { MkError } from '../../errors.js'
import { describeIssues } from '../../validation.js'

/** Which bucket a call draws from: read-only tools recall, the debug channel debug, everything else write. */
export type QuotaClass = keyof QuotaSettings

export type QuotaSettings = z.output<typeof quotasSchema>

const reasonOf: Record<QuotaClass, string> = {
  recall: 'tenant_rate_limited_recall',
  write: 'tenant_rate_limited_write',
  debug: 'tenant_rate_limited_debug_embeddings',
}

/** MK_TENANT_QUOTAS (JSON) wins over `.mkrc` serve.quotas. */
export function quotaSettingsFrom(env: NodeJS.ProcessEnv, configured: QuotaSettings | undefined): QuotaSettings {
  const text = env.MK_TENANT_QUOTAS
  if (text === undefined || text === '') return configured ?? {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `MK_TENANT_QUOTAS is not JSON: ${(error as Error).message}`, { details: { field: 'MK_TENANT_QUOTAS' } })
  }
  const parsed = quotasSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const problems = describeIssues(parsed.error.issues, raw)
  throw new MkError('INVALID_INPUT', `MK_TENANT_QUOTAS: ${problems[0]?.message ?? 'invalid'}`, {
    details: { field: 'MK_TENANT_QUOTAS', problems, hint: `e.g. {"recall": {"rps": 5, "burst": 10}, "write": {"rps": 1, "burst": 5}}` },
  })
}

interface Bucket {
  tokens: number
  at: number
}

/** Token buckets per tenant and class. */
export class TenantQuotas {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly settings: QuotaSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token, or throws RATE_LIMITED with the seconds until one is back. */
  take(tenantId: string, quotaClass: QuotaClass): void {
    const rate = this.settings[quotaClass]
    if (rate === undefined) return
    const key = `${tenantId}\u0000${quotaClass}`
    const now = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: rate.burst, at: now }
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.rps)
    bucket.at = now
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / rate.rps))
    throw new MkError('RATE_LIMITED', `tenant "${tenantId}" is over its ${quotaClass} quota (${rate.rps}/s, burst ${rate.burst})`, {
      details: { reason: reasonOf[quotaClass], retry_after_s: retryAfterSeconds, hint: `retry after ${retryAfterSeconds} s` },
    })
  }
}
