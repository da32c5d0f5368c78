import { describe, expect, it } from 'vitest'
import type { DispatchOutcome } from '../../../src/tools/dispatcher.js'
import { CallScheduler } from '../../../src/hosts/http/call-scheduler.js'
import type { ToolCall } from '../../../src/hosts/http/tool-call.js'
import type { CallRunner } from '../../../src/hosts/http/tool-threads.js'
import { TenantSites } from '../../../src/hosts/http/ui-sites.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { MkError, toErrorObject } from '../../../src/errors.js'

/** A runner that answers site_build when the test says, recording each call. */
function scriptedBuilds() {
  const calls: { call: ToolCall; finish: (rebuilt: boolean) => void }[] = []
  const runner: CallRunner = {
    slots: 4,
    threaded: true,
    run: (call) =>
      new Promise<DispatchOutcome>((resolve) => {
        calls.push({
          call,
          finish: (rebuilt) =>
            resolve({ ok: true, output: { out: `/sites/${call.tenantId}`, rebuilt }, display: '', exitCode: 0, warnings: [], artifacts: [] }),
        })
      }),
    warmWrites: async () => undefined,
    closeTenant: async () => undefined,
    close: async () => undefined,
  }
  return { runner, calls }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('TenantSites', () => {
  it('runs one build per tenant at a time: requests meanwhile wait for it; another tenant builds its own', async () => {
    const { runner, calls } = scriptedBuilds()
    let now = 0
    const sites = new TenantSites(
      new CallScheduler(runner, { maxOpenTenants: 8, maxWaitingPerTenant: 8, maxWritesPerTenant: 8, writeLeadMs: 200 }),
      runtimeEnvFrom({}),
      { recheckMs: 1000, maxAgeMs: 60_000 },
      () => now,
    )
    const waiting = [sites.folder('team-a'), sites.folder('team-a'), sites.folder('team-a'), sites.folder('team-b')]
    await settle()
    expect(calls.map(({ call }) => [call.tenantId, call.tool, call.input])).toEqual([
      ['team-a', 'site_build', { out: '.mk/ui-site', reuse: false, memories: true }],
      ['team-b', 'site_build', { out: '.mk/ui-site', reuse: false, memories: true }],
    ])
    // The build runs as a writer with no agent or team: the site shows what every member of the tenant may read.
    expect(calls[0]?.call.runtime.credential).toEqual({ role: 'writer', agentId: undefined, teamId: undefined })
    for (const entry of calls) entry.finish(true)
    expect(await Promise.all(waiting)).toEqual(['/sites/team-a', '/sites/team-a', '/sites/team-a', '/sites/team-b'])

    // Within recheckMs the site is served as it is; after it, the build is asked to reuse the site if nothing changed.
    now = 500
    expect(await sites.folder('team-a')).toBe('/sites/team-a')
    expect(calls).toHaveLength(2)
    now = 1500
    const checked = sites.folder('team-a')
    await settle()
    expect(calls[2]?.call.input).toEqual({ out: '.mk/ui-site', reuse: true, memories: true })
    calls[2]?.finish(false)
    await checked
    // Past maxAgeMs since the last real build, the site is built again even if the knowledge did not change.
    now = 70_000
    const aged = sites.folder('team-a')
    await settle()
    expect(calls[3]?.call.input).toEqual({ out: '.mk/ui-site', reuse: false, memories: true })
    calls[3]?.finish(true)
    await aged
  })

  it('passes a failed build to every waiting request and tries again on the next', async () => {
    const failing: CallRunner = {
      slots: 2,
      threaded: true,
      run: async (): Promise<DispatchOutcome> => ({ ok: false, error: toErrorObject(new MkError('INTERNAL_ERROR', 'disk full')), warnings: [] }),
      warmWrites: async () => undefined,
      closeTenant: async () => undefined,
      close: async () => undefined,
    }
    const sites = new TenantSites(
      new CallScheduler(failing, { maxOpenTenants: 8, maxWaitingPerTenant: 8, maxWritesPerTenant: 8, writeLeadMs: 200 }),
      runtimeEnvFrom({}),
      {
        recheckMs: 1000,
        maxAgeMs: 60_000,
      },
    )
    await expect(sites.folder('team-a')).rejects.toThrow('the site could not be built: disk full')
    await expect(sites.folder('team-a')).rejects.toThrow('disk full')
  })
})
