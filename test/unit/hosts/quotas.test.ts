import { describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { TenantQuotas, quotaSettingsFrom } from '../../../src/hosts/http/quotas.js'

function refusal(take: () => void): MkError | undefined {
  try {
    take()
    return undefined
  } catch (error) {
    return error as MkError
  }
}

describe('tenant quotas', () => {
  it('allows the burst, then refuses with RATE_LIMITED, the class reason and the seconds until a token is back', () => {
    let now = 0
    const quotas = new TenantQuotas({ recall: { rps: 2, burst: 3 } }, () => now)
    for (let call = 0; call < 3; call++) expect(refusal(() => quotas.take('team-a', 'recall'))).toBeUndefined()
    const refused = refusal(() => quotas.take('team-a', 'recall'))
    expect(refused?.code).toBe('RATE_LIMITED')
    expect(refused?.retryable).toBe(true)
    expect(refused?.details).toMatchObject({ reason: 'tenant_rate_limited_recall', retry_after_s: 1 })
    now = 500
    expect(refusal(() => quotas.take('team-a', 'recall'))).toBeUndefined()
    expect(refusal(() => quotas.take('team-a', 'recall'))?.code).toBe('RATE_LIMITED')
  })

  it('keeps a bucket per tenant and per class, and never limits a class without a setting', () => {
    const quotas = new TenantQuotas({ write: { rps: 1, burst: 1 }, debug: { rps: 0.1, burst: 1 } }, () => 0)
    quotas.take('team-a', 'write')
    expect(refusal(() => quotas.take('team-a', 'write'))?.details).toMatchObject({ reason: 'tenant_rate_limited_write' })
    expect(refusal(() => quotas.take('team-b', 'write'))).toBeUndefined()
    quotas.take('team-a', 'debug')
    expect(refusal(() => quotas.take('team-a', 'debug'))?.details).toMatchObject({ reason: 'tenant_rate_limited_debug_embeddings', retry_after_s: 10 })
    for (let call = 0; call < 100; call++) expect(refusal(() => quotas.take('team-a', 'recall'))).toBeUndefined()
  })

  it('admits the configured rate over time', () => {
    let now = 0
    const quotas = new TenantQuotas({ recall: { rps: 10, burst: 1 } }, () => now)
    let admitted = 0
    for (now = 0; now < 10_000; now += 5) if (refusal(() => quotas.take('t', 'recall')) === undefined) admitted++
    expect(admitted).toBeGreaterThanOrEqual(99)
    expect(admitted).toBeLessThanOrEqual(101)
  })

  it('reads MK_TENANT_QUOTAS before the .mkrc settings and names a bad value', () => {
    expect(quotaSettingsFrom({ MK_TENANT_QUOTAS: '{"recall":{"rps":5,"burst":10}}' }, { write: { rps: 1, burst: 1 } })).toEqual({
      recall: { rps: 5, burst: 10 },
    })
    expect(quotaSettingsFrom({}, { write: { rps: 1, burst: 1 } })).toEqual({ write: { rps: 1, burst: 1 } })
    expect(() => quotaSettingsFrom({ MK_TENANT_QUOTAS: '{"recall":{"rps":-1,"burst":10}}' }, undefined)).toThrow(/MK_TENANT_QUOTAS: recall\.rps/)
    expect(() => quotaSettingsFrom({ MK_TENANT_QUOTAS: '{recall' }, undefined)).toThrow(/not JSON/)
  })
})
