import { describe, expect, it } from 'vitest'
import { resolveTenant, withIdentity } from '../../../src/hosts/http/caller-input.js'

describe('resolveTenant', () => {
  it('takes tenant_id, else X-Tenant-Id, else default when auth is off', () => {
    expect(resolveTenant(undefined, undefined, undefined)).toBe('default')
    expect(resolveTenant(undefined, 'team-b', undefined)).toBe('team-b')
    expect(resolveTenant('team-a', 'team-a', undefined)).toBe('team-a')
    expect(() => resolveTenant('team-a', 'team-b', undefined)).toThrow(/disagree/)
  })

  it('refuses tenant ids that could name a path or collide on a case-insensitive file system', () => {
    for (const bad of ['..', '../x', 'a/b', 'Team', '', '.hidden', 'a'.repeat(64), 'a b', 7]) {
      expect(() => resolveTenant(bad, undefined, undefined), String(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    }
    expect(() => resolveTenant(undefined, '..%2f', undefined)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
  })

  it("uses the credential's tenant and refuses another with FORBIDDEN tenant_mismatch", () => {
    const identity = { tenantId: 'team-a' }
    expect(resolveTenant(undefined, undefined, identity)).toBe('team-a')
    expect(resolveTenant('team-a', undefined, identity)).toBe('team-a')
    expect(() => resolveTenant('team-b', undefined, identity)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'tenant_mismatch' }) }),
    )
    expect(() => resolveTenant(undefined, 'team-b', identity)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }))
  })
})

describe('withIdentity', () => {
  const identity = { tenantId: 'team-a', agentId: 'agent-1', teamId: 'core' }
  const fields = new Set(['query', 'consumer_agent_id', 'consumer_team_id', 'agent'])
  const settled = (input: Record<string, unknown>, who: Parameters<typeof withIdentity>[1], names: ReadonlySet<string>): Record<string, unknown> =>
    withIdentity(input, who, names).input
  const refusal = (field: string) => expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'identity_mismatch', field }) })

  it('fills in the identity fields the tool has and the caller omitted', () => {
    expect(settled({ query: 'x' }, identity, fields)).toEqual({ query: 'x', consumer_agent_id: 'agent-1', consumer_team_id: 'core', agent: 'agent-1' })
    expect(settled({ query: 'x' }, identity, new Set(['query']))).toEqual({ query: 'x' })
    expect(settled({ query: 'x' }, { tenantId: 'team-a' }, fields)).toEqual({ query: 'x' })
    expect(settled({ query: 'x', agent: 'other' }, undefined, fields)).toEqual({ query: 'x', agent: 'other' })
  })

  it('refuses a field that names another agent or team with FORBIDDEN identity_mismatch', () => {
    expect(settled({ consumer_agent_id: 'agent-1' }, identity, fields)).toMatchObject({ consumer_agent_id: 'agent-1' })
    for (const input of [{ consumer_agent_id: 'agent-2' }, { consumer_team_id: 'other' }, { agent: 'agent-2' }]) {
      expect(() => withIdentity(input, identity, fields)).toThrow(refusal(Object.keys(input)[0] ?? ''))
    }
  })

  it('lets a credential without agent_id or team_id name no agent and no team (issue 25, item 1)', () => {
    const tenantOnly = { tenantId: 'team-a' }
    const agentOnly = { tenantId: 'team-a', agentId: 'y' }
    expect(() => withIdentity({ consumer_agent_id: 'x' }, tenantOnly, fields)).toThrow(refusal('consumer_agent_id'))
    expect(() => withIdentity({ agent: 'x' }, tenantOnly, fields)).toThrow(refusal('agent'))
    expect(() => withIdentity({ consumer_team_id: 'tm' }, agentOnly, fields)).toThrow(refusal('consumer_team_id'))
    const ownerFields = new Set(['content', 'lane', 'owner_agent_id', 'owner_team_id'])
    expect(() => withIdentity({ content: 'x', owner_team_id: 'tm' }, agentOnly, ownerFields)).toThrow(refusal('owner_team_id'))
    expect(() => withIdentity({ content: 'x', owner_agent_id: 'x' }, tenantOnly, ownerFields)).toThrow(refusal('owner_agent_id'))
    expect(() => withIdentity({ context: { agent: { id: 'x' } } }, tenantOnly, new Set(['context']))).toThrow(refusal('context.agent.id'))
    expect(() => withIdentity({ agent_id: 'x' }, tenantOnly, new Set(['agent_id']))).toThrow(refusal('agent_id'))
  })

  it('lets an admin name another agent or team, and lists each such field for the audit', () => {
    const admin = { tenantId: 'team-a', agentId: 'ops', role: 'admin' as const }
    expect(withIdentity({ consumer_agent_id: 'x', consumer_team_id: 'tm' }, admin, fields)).toEqual({
      input: { consumer_agent_id: 'x', consumer_team_id: 'tm', agent: 'ops' },
      actingFor: [
        { field: 'consumer_agent_id', value: 'x' },
        { field: 'consumer_team_id', value: 'tm' },
      ],
    })
    expect(withIdentity({ consumer_agent_id: 'ops' }, admin, fields).actingFor).toEqual([])
    expect(() => withIdentity({ consumer_agent_id: 'x' }, { ...admin, role: 'writer' }, fields)).toThrow(refusal('consumer_agent_id'))
  })

  it("makes a write without lane private to the credential's agent (issue 25, item 4), and never fills an owner otherwise", () => {
    const ownerFields = new Set(['content', 'lane', 'producer_agent_id', 'owner_agent_id', 'owner_team_id'])
    expect(settled({ content: 'x' }, identity, ownerFields)).toEqual({ content: 'x', lane: 'private', producer_agent_id: 'agent-1', owner_agent_id: 'agent-1' })
    expect(settled({ content: 'x', owner_team_id: 'core' }, identity, ownerFields)).toEqual({
      content: 'x',
      lane: 'private',
      producer_agent_id: 'agent-1',
      owner_team_id: 'core',
    })
    expect(settled({ content: 'x', lane: 'shared' }, identity, ownerFields)).toEqual({ content: 'x', lane: 'shared', producer_agent_id: 'agent-1' })
    expect(settled({ content: 'x' }, { tenantId: 'team-a', teamId: 'core' }, ownerFields)).toEqual({ content: 'x' })
    expect(settled({ content: 'x' }, undefined, ownerFields)).toEqual({ content: 'x' })
    for (const input of [{ owner_agent_id: 'agent-2' }, { owner_team_id: 'other' }]) {
      expect(() => withIdentity({ content: 'x', ...input }, identity, ownerFields)).toThrow(refusal(Object.keys(input)[0] ?? ''))
    }
  })

  it('fills and checks context.agent for tools that read a context', () => {
    const contextFields = new Set(['context'])
    expect(settled({}, identity, contextFields)).toEqual({ context: { agent: { id: 'agent-1', team_id: 'core' } } })
    expect(settled({ context: { environment: 'prod', agent: { id: 'agent-1' } } }, identity, contextFields)).toEqual({
      context: { environment: 'prod', agent: { id: 'agent-1', team_id: 'core' } },
    })
    expect(settled({}, { tenantId: 'team-a' }, contextFields)).toEqual({})
    expect(() => withIdentity({ context: { agent: { id: 'agent-2' } } }, identity, contextFields)).toThrow(refusal('context.agent.id'))
    expect(() => withIdentity({ context: { agent: { team_id: 'other' } } }, identity, contextFields)).toThrow(refusal('context.agent.team_id'))
  })
})
