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

  it('fills in the identity fields the tool has and the caller omitted', () => {
    expect(withIdentity({ query: 'x' }, identity, fields)).toEqual({ query: 'x', consumer_agent_id: 'agent-1', consumer_team_id: 'core', agent: 'agent-1' })
    expect(withIdentity({ query: 'x' }, identity, new Set(['query']))).toEqual({ query: 'x' })
    expect(withIdentity({ query: 'x' }, { tenantId: 'team-a' }, fields)).toEqual({ query: 'x' })
    expect(withIdentity({ query: 'x', agent: 'other' }, undefined, fields)).toEqual({ query: 'x', agent: 'other' })
  })

  it('refuses a field that names another agent or team with FORBIDDEN identity_mismatch', () => {
    expect(withIdentity({ consumer_agent_id: 'agent-1' }, identity, fields)).toMatchObject({ consumer_agent_id: 'agent-1' })
    for (const input of [{ consumer_agent_id: 'agent-2' }, { consumer_team_id: 'other' }, { agent: 'agent-2' }]) {
      expect(() => withIdentity(input, identity, fields)).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'identity_mismatch', field: Object.keys(input)[0] }) }),
      )
    }
  })

  it('lets a caller own a private memory only as itself or its team, and never fills the owner in', () => {
    const ownerFields = new Set(['content', 'producer_agent_id', 'owner_agent_id', 'owner_team_id'])
    expect(withIdentity({ content: 'x', owner_team_id: 'core' }, identity, ownerFields)).toEqual({
      content: 'x',
      producer_agent_id: 'agent-1',
      owner_team_id: 'core',
    })
    expect(withIdentity({ content: 'x', owner_agent_id: 'agent-1' }, identity, ownerFields)).toMatchObject({ owner_agent_id: 'agent-1' })
    for (const input of [{ owner_agent_id: 'agent-2' }, { owner_team_id: 'other' }]) {
      expect(() => withIdentity({ content: 'x', ...input }, identity, ownerFields)).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN', details: expect.objectContaining({ reason: 'identity_mismatch', field: Object.keys(input)[0] }) }),
      )
    }
  })

  it('fills and checks context.agent for tools that read a context', () => {
    const contextFields = new Set(['context'])
    expect(withIdentity({}, identity, contextFields)).toEqual({ context: { agent: { id: 'agent-1', team_id: 'core' } } })
    expect(withIdentity({ context: { environment: 'prod', agent: { id: 'agent-1' } } }, identity, contextFields)).toEqual({
      context: { environment: 'prod', agent: { id: 'agent-1', team_id: 'core' } },
    })
    expect(() => withIdentity({ context: { agent: { id: 'agent-2' } } }, identity, contextFields)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'context.agent.id' }) }),
    )
    expect(() => withIdentity({ context: { agent: { team_id: 'other' } } }, identity, contextFields)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'context.agent.team_id' }) }),
    )
  })
})
