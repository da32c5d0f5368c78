import { MkError } from '../../errors.js'
import { defaultTenant, requireTenantId } from './tenants.js'
import type { CallerIdentity } from './identity.js'

/** Fields of tool inputs that name the calling agent or its team. */
const agentFields = ['consumer_agent_id', 'producer_agent_id', 'agent'] as const
const teamFields = ['consumer_team_id'] as const
/** Owner fields are checked but never filled in: omitting them is how a caller writes a shared memory. */
const ownerFields = [
  ['owner_agent_id', 'agentId'],
  ['owner_team_id', 'teamId'],
] as const

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The tenant a request acts in: tenant_id in the body, else X-Tenant-Id, else the credential's, else `default`; never another than the credential's. */
export function resolveTenant(bodyTenant: unknown, headerTenant: string | undefined, identity: CallerIdentity | undefined): string {
  const fromBody = bodyTenant === undefined ? undefined : requireTenantId(bodyTenant, 'tenant_id')
  const fromHeader = headerTenant === undefined ? undefined : requireTenantId(headerTenant, 'X-Tenant-Id')
  if (fromBody !== undefined && fromHeader !== undefined && fromBody !== fromHeader) {
    throw new MkError('INVALID_INPUT', `tenant_id "${fromBody}" and X-Tenant-Id "${fromHeader}" disagree`, {
      details: { field: 'tenant_id', hint: 'send one of them' },
    })
  }
  const requested = fromBody ?? fromHeader
  if (identity === undefined) return requested ?? defaultTenant
  if (requested !== undefined && requested !== identity.tenantId) {
    throw new MkError('FORBIDDEN', `this credential belongs to another tenant than "${requested}"`, {
      details: { reason: 'tenant_mismatch', hint: 'omit tenant_id and X-Tenant-Id, or use a credential of that tenant' },
    })
  }
  return identity.tenantId
}

function mismatch(field: string): MkError {
  return new MkError('FORBIDDEN', `${field} contradicts the identity of the credential`, {
    details: { reason: 'identity_mismatch', field, hint: `omit ${field}: the server fills it in from the credential` },
  })
}

/** Fills one identity field in, or refuses a value that contradicts it. */
function settle(target: Record<string, unknown>, field: string, value: string | undefined, path: string): void {
  if (value === undefined) return
  const given = target[field]
  if (given === undefined) target[field] = value
  else if (given !== value) throw mismatch(path)
}

/**
 * The input a tool gets: identity fields the caller omitted are filled in from
 * its credential (only fields the tool's input schema has), and a field that
 * names another agent or team is refused with 403 identity_mismatch, owners
 * included: an agent cannot write into another agent's or team's private lane.
 */
export function withIdentity(input: Record<string, unknown>, identity: CallerIdentity | undefined, inputFields: ReadonlySet<string>): Record<string, unknown> {
  if (identity === undefined) return input
  const result = { ...input }
  for (const field of agentFields) if (inputFields.has(field)) settle(result, field, identity.agentId, field)
  for (const field of teamFields) if (inputFields.has(field)) settle(result, field, identity.teamId, field)
  for (const [field, key] of ownerFields) {
    const own = identity[key]
    if (inputFields.has(field) && own !== undefined && result[field] !== undefined && result[field] !== own) throw mismatch(field)
  }
  if (inputFields.has('context') && (identity.agentId !== undefined || identity.teamId !== undefined)) {
    const context = result.context === undefined ? {} : result.context
    if (!isRecord(context)) return result
    const agent = context.agent === undefined ? {} : context.agent
    if (!isRecord(agent)) throw mismatch('context.agent')
    const settled = { ...agent }
    settle(settled, 'id', identity.agentId, 'context.agent.id')
    settle(settled, 'team_id', identity.teamId, 'context.agent.team_id')
    result.context = { ...context, agent: settled }
  }
  return result
}
