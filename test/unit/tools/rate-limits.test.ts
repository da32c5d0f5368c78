import { describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { admitCall } from '../../../src/hosts/http/call-admission.js'
import type { CallerIdentity } from '../../../src/hosts/http/identity.js'
import { TenantQuotas } from '../../../src/hosts/http/quotas.js'
import { currentManifest } from '../../../src/tools/catalog/registered.js'
import type { AnyTool } from '../../../src/tools/define.js'
import { ToolRateLimits, toolRateLimit } from '../../../src/tools/rate-limits.js'
import { tools } from '../../../src/tools/registry.js'

/* Seed 004's per-tool rate_limit: the number in the manifest is the number the hosts enforce. */

function tool(name: string): AnyTool {
  const found = tools.find((candidate) => candidate.name === name)
  if (found === undefined) throw new Error(`no tool ${name}`)
  return found
}

function refusal(work: () => unknown): MkError | undefined {
  try {
    work()
    return undefined
  } catch (error) {
    return error as MkError
  }
}

describe('tool rate limits', () => {
  it('are the manifest constraint of every tool', async () => {
    for (const entry of (await currentManifest()).tools) expect(entry.constraints.rate_limit, entry.name).toEqual(toolRateLimit(tool(entry.name)))
  })

  it("admit a minute's calls of a tool at once, then refuse with RATE_LIMITED and when to retry", () => {
    let now = 0
    const limits = new ToolRateLimits(() => now)
    const syncNow = tool('sync_now')
    const perMinute = toolRateLimit(syncNow).requests_per_minute
    for (let call = 0; call < perMinute; call++) expect(refusal(() => limits.take('team-a', syncNow))).toBeUndefined()
    const refused = refusal(() => limits.take('team-a', syncNow))
    expect(refused?.code).toBe('RATE_LIMITED')
    expect(refused?.retryable).toBe(true)
    expect(refused?.details).toMatchObject({ reason: 'tool_rate_limited', tool: 'sync_now', requests_per_minute: perMinute, retry_after_s: 2 })
    // Another caller, and another tool of the same caller, have buckets of their own.
    expect(refusal(() => limits.take('team-b', syncNow))).toBeUndefined()
    expect(refusal(() => limits.take('team-a', tool('memory_search')))).toBeUndefined()
    // The bucket refills evenly: one call every 60/perMinute seconds, never more.
    now = (60_000 / perMinute) * 1.01
    expect(refusal(() => limits.take('team-a', syncNow))).toBeUndefined()
    expect(refusal(() => limits.take('team-a', syncNow))?.code).toBe('RATE_LIMITED')
  })

  it("hold a team server's credential to the limit in every scope, never stalling another caller", () => {
    const limits = new ToolRateLimits(() => 0)
    const quotas = new TenantQuotas({})
    const memoryAdd = tool('memory_add')
    const perMinute = toolRateLimit(memoryAdd).requests_per_minute
    const admit = (scope: string, identity: CallerIdentity | undefined): MkError | undefined =>
      refusal(() =>
        admitCall(
          { tool: memoryAdd, body: { content: 'x', scope }, headerTenant: undefined, identity, inputFields: new Set(['content']), quotas, toolLimits: limits },
          {},
        ),
      )
    const planner = { tenantId: 'acme', agentId: 'planner' }
    for (let call = 0; call < perMinute; call++) expect(admit(call % 2 === 0 ? 'default' : `scope-${call}`, planner)).toBeUndefined()
    expect(admit('another-scope', planner)?.details).toMatchObject({ reason: 'tool_rate_limited', tool: 'memory_add' })
    // Another agent of the tenant, and another tenant, have budgets of their own.
    expect(admit('default', { tenantId: 'acme', agentId: 'reviewer' })).toBeUndefined()
    expect(admit('default', { tenantId: 'globex', agentId: 'planner' })).toBeUndefined()
    // A server without authentication trusts whoever reaches it.
    for (let call = 0; call <= perMinute; call++) expect(admit('default', undefined)).toBeUndefined()
  })
})
