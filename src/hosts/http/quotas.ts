import { z } from 'zod'
import { quotasSchema } from '../../config/schema.js'
import { MkError } from '../../errors.js'
import { TokenBuckets } from '../../token-buckets.js'
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

/** Token buckets per tenant and class. */
export class TenantQuotas {
  private readonly buckets: TokenBuckets

  constructor(
    private readonly settings: QuotaSettings,
    now?: () => number,
  ) {
    this.buckets = new TokenBuckets(now)
  }

  /** Takes one token, or throws RATE_LIMITED with the seconds until one is back. */
  take(tenantId: string, quotaClass: QuotaClass): void {
    const rate = this.settings[quotaClass]
    if (rate === undefined) return
    const retryAfterSeconds = this.buckets.take(`${tenantId}\u0000${quotaClass}`, { perSecond: rate.rps, burst: rate.burst })
    if (retryAfterSeconds === undefined) return
    throw new MkError('RATE_LIMITED', `tenant "${tenantId}" is over its ${quotaClass} quota (${rate.rps}/s, burst ${rate.burst})`, {
      details: { reason: reasonOf[quotaClass], retry_after_s: retryAfterSeconds, hint: `retry after ${retryAfterSeconds} s` },
    })
  }
}
