import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { roles, type ProvenCaller, type Role } from '../../../src/config/credential.js'
import { validateConfig } from '../../../src/config/load.js'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { Resources } from '../../../src/tools/context.js'
import { requireDebugAccess, debugChannelExposure } from '../../../src/tools/debug-channel.js'
import { defineTool, tiers, type AnyTool, type Tier } from '../../../src/tools/define.js'
import { dispatch, type CallerContext } from '../../../src/tools/dispatcher.js'
import { tiersOfRole } from '../../../src/tools/roles.js'
import { plainStyle } from '../../../src/style.js'

function callerAs(credential: ProvenCaller | undefined): CallerContext {
  return {
    workspace: { root: '/ws', configPath: undefined, config: validateConfig({}, 'test'), mkHome: '/home/.mk', stateDir: '/ws/.mk' },
    env: {},
    cwd: '/ws',
    runtime: { ...runtimeEnvFrom({}), credential },
    style: plainStyle,
    resources: new Resources(),
  }
}

function toolOfTier(tier: Tier): AnyTool {
  return defineTool({
    name: `probe_${tier}`,
    title: 'Probe',
    description: 'Answers ok',
    tier,
    idempotent: true,
    input: z.strictObject({ n: z.number() }),
    output: z.strictObject({ ok: z.literal(true) }),
    examples: [],
    async run() {
      return { output: { ok: true as const }, display: 'ok' }
    },
  }) as unknown as AnyTool
}

const as = (role: Role): ProvenCaller => ({ role, agentId: 'a', teamId: undefined })

describe('roles (issue 25, item 2)', () => {
  it('reader calls read-only tools, writer also workspace tools, admin also system and elevated ones', () => {
    expect(tiersOfRole).toEqual({
      reader: ['read_only'],
      writer: ['read_only', 'workspace'],
      admin: ['read_only', 'workspace', 'system', 'elevated'],
    })
  })

  it('are enforced by the dispatcher every host calls, before the input is read; a local caller has no role', async () => {
    for (const role of roles) {
      for (const tier of tiers.filter((candidate) => candidate !== 'elevated')) {
        const outcome = await dispatch(toolOfTier(tier), { n: 'not a number' }, callerAs(as(role)))
        const expected = tiersOfRole[role].includes(tier) ? 'INVALID_INPUT' : 'FORBIDDEN'
        expect(outcome.ok ? 'ok' : outcome.error.errorCode, `${role} ${tier}`).toBe(expected)
        if (expected === 'FORBIDDEN' && !outcome.ok) expect(outcome.error.details).toMatchObject({ reason: 'role_forbidden', role, tier })
      }
    }
    expect(await dispatch(toolOfTier('system'), { n: 1 }, callerAs(undefined))).toMatchObject({ ok: true })
    expect(await dispatch(toolOfTier('workspace'), { n: 1 }, callerAs(as('reader')))).toMatchObject({ ok: false, error: { errorCode: 'FORBIDDEN' } })
  })
})

describe('the recall debug channel (issue 25, item 12)', () => {
  const local = { adminToken: undefined, production: false, credential: undefined }
  const refused = expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'debug_forbidden' }) })

  it('needs the admin role or MK_ADMIN_TOKEN from a caller with a credential, even outside production', () => {
    expect(() => requireDebugAccess(undefined, { ...local, credential: as('writer') })).toThrow(refused)
    expect(() => requireDebugAccess(undefined, { ...local, credential: as('reader') })).toThrow(refused)
    expect(() => requireDebugAccess(undefined, { ...local, credential: as('admin') })).not.toThrow()
    expect(() => requireDebugAccess('secret', { ...local, adminToken: 'secret', credential: as('writer') })).not.toThrow()
    expect(() => requireDebugAccess('guess', { ...local, adminToken: 'secret', credential: as('writer') })).toThrow(refused)
  })

  it('stays open to a local caller outside production when no admin token is set, as before', () => {
    expect(() => requireDebugAccess(undefined, local)).not.toThrow()
    expect(() => requireDebugAccess(undefined, { ...local, production: true })).toThrow(refused)
    expect(() => requireDebugAccess(undefined, { ...local, adminToken: 'secret' })).toThrow(refused)
    expect(() => requireDebugAccess('secret', { ...local, adminToken: 'secret' })).not.toThrow()
  })

  it('is described for the start-up line as the same rule', () => {
    expect(debugChannelExposure(true, local)).toBe('admin role only')
    expect(debugChannelExposure(true, { ...local, adminToken: 't' })).toBe('admin role or MK_ADMIN_TOKEN')
    expect(debugChannelExposure(false, local)).toMatch(/^open to every caller/)
    expect(debugChannelExposure(false, { ...local, production: true })).toMatch(/^closed/)
    expect(debugChannelExposure(false, { ...local, adminToken: 't' })).toBe('MK_ADMIN_TOKEN only')
  })
})
