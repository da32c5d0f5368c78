import { describe, expect, it } from 'vitest'
import { serveLimitsFrom } from '../../../src/hosts/http/serve-limits.js'

describe('serveLimitsFrom', () => {
  it('lets every thread run one tenant’s writes unless MK_SERVE_TENANT_WRITES bounds them', () => {
    expect(serveLimitsFrom({ MK_SERVE_THREADS: '3' })).toMatchObject({ threads: 3, maxWritesPerTenant: 3 })
    expect(serveLimitsFrom({ MK_SERVE_THREADS: '3', MK_SERVE_TENANT_WRITES: '1' })).toMatchObject({ threads: 3, maxWritesPerTenant: 1 })
  })

  it('refuses an MK_SERVE_TENANT_WRITES that is not a whole number from 1, naming the setting', () => {
    for (const text of ['0', 'one', '1.5']) {
      expect(() => serveLimitsFrom({ MK_SERVE_TENANT_WRITES: text })).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'MK_SERVE_TENANT_WRITES' }) }),
      )
    }
  })

  it('gives a tool call 30 s unless MK_SERVE_TOOL_TIMEOUT_MS says otherwise, and refuses one under 100 ms', () => {
    expect(serveLimitsFrom({}).toolTimeoutMs).toBe(30_000)
    expect(serveLimitsFrom({ MK_SERVE_TOOL_TIMEOUT_MS: '5000' }).toolTimeoutMs).toBe(5_000)
    expect(() => serveLimitsFrom({ MK_SERVE_TOOL_TIMEOUT_MS: '50' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'MK_SERVE_TOOL_TIMEOUT_MS' }) }),
    )
  })

  it('puts a write before the searches of its last 300 ms unless MK_SERVE_WRITE_LEAD_MS says otherwise', () => {
    expect(serveLimitsFrom({}).writeLeadMs).toBe(300)
    expect(serveLimitsFrom({ MK_SERVE_WRITE_LEAD_MS: '0' }).writeLeadMs).toBe(0)
    expect(() => serveLimitsFrom({ MK_SERVE_WRITE_LEAD_MS: '-1' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'MK_SERVE_WRITE_LEAD_MS' }) }),
    )
  })
})
