import { defaultRole, type ProvenCaller } from '../../config/credential.js'
import { MkError } from '../../errors.js'
import { hasAdminRole } from '../../tools/roles.js'
import { defaultTenant, requireTenantId } from './tenants.js'
import type { CallerIdentity } from './identity.js'

/** What an identity field of a tool input names: an agent or a team. */
export type IdentityKind = 'agent' | 'team'

/**
 * Every top-level input field that names an agent or a team. A field here may
 * only name what the credential carries (an admin may name another, audited);
 * the security tests walk every tool's input schema against this list.
 */
export const identityFieldKinds: Readonly<Record<string, IdentityKind>> = {
  consumer_agent_id: 'agent',
  producer_agent_id: 'agent',
  agent: 'agent',
  agent_id: 'agent',
  owner_agent_id: 'agent',
  consumer_team_id: 'team',
  owner_team_id: 'team',
}

/** Owner fields are not filled in from the credential: the lane default below decides who owns a write. */
const ownerFields = new Set(['owner_agent_id', 'owner_team_id'])

/** The input field of tools that take a rules context, whose `agent.id` and `agent.team_id` (or `agent_id` and `team_id`) name the caller. */
export const contextField = 'context'

/** An identity field one caller named that is not its own: only an admin may, and the request log records it. */
export interface ActingFor {
  field: string
  value: string
}

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

function mismatch(field: string, kind: IdentityKind, own: string | undefined): MkError {
  const message =
    own === undefined
      ? `${field} names ${kind === 'agent' ? 'an agent' : 'a team'}, but this credential carries no ${kind}: it may name none`
      : `${field} contradicts the identity of the credential`
  return new MkError('FORBIDDEN', message, {
    details: {
      reason: 'identity_mismatch',
      field,
      hint:
        own === undefined
          ? `omit ${field}, or use a credential whose key or JWT carries ${kind === 'agent' ? 'agent_id' : 'team_id'}`
          : `omit ${field}: the server fills it in from the credential`,
    },
  })
}

/** The credential's view of one caller, and the list its admin acts-for are recorded in. */
interface Settling {
  identity: CallerIdentity
  admin: boolean
  actingFor: ActingFor[]
}

/** Fills one identity field in (unless `fill` is false), or refuses a value that is not the credential's own. */
function settle(target: Record<string, unknown>, field: string, kind: IdentityKind, path: string, fill: boolean, settling: Settling): void {
  const own = kind === 'agent' ? settling.identity.agentId : settling.identity.teamId
  const given = target[field]
  if (given === undefined) {
    if (fill && own !== undefined) target[field] = own
    return
  }
  if (given === own) return
  if (!settling.admin) throw mismatch(path, kind, own)
  settling.actingFor.push({ field: path, value: typeof given === 'string' ? given : JSON.stringify(given) })
}

/**
 * The server's lane default (seed 002): a write that does not say its lane,
 * made with a credential naming an agent, is private, owned by that agent
 * unless the caller named an owner. Shared must be asked for.
 */
function defaultLane(result: Record<string, unknown>, identity: CallerIdentity, inputFields: ReadonlySet<string>): void {
  if (!inputFields.has('lane') || !inputFields.has('owner_agent_id') || identity.agentId === undefined || result.lane !== undefined) return
  result.lane = 'private'
  if (result.owner_agent_id === undefined && result.owner_team_id === undefined) result.owner_agent_id = identity.agentId
}

/**
 * The input a tool gets from a caller with a credential. Identity fields the
 * caller omitted are filled in from the credential (only fields the tool's
 * input schema has); a field naming an agent or team the credential does not
 * carry is refused with 403 identity_mismatch (a credential without agent_id
 * names no agent at all), unless the credential is an admin's, which may act
 * for another and is listed in `actingFor`. Without a credential (auth off) the
 * input is taken as it is.
 */
export function withIdentity(
  input: Record<string, unknown>,
  identity: CallerIdentity | undefined,
  inputFields: ReadonlySet<string>,
): { input: Record<string, unknown>; actingFor: ActingFor[] } {
  if (identity === undefined) return { input, actingFor: [] }
  const settling: Settling = { identity, admin: hasAdminRole(provenCaller(identity)), actingFor: [] }
  const result = { ...input }
  for (const [field, kind] of Object.entries(identityFieldKinds)) {
    if (inputFields.has(field)) settle(result, field, kind, field, !ownerFields.has(field), settling)
  }
  defaultLane(result, identity, inputFields)
  if (inputFields.has(contextField)) {
    const context = result.context === undefined ? {} : result.context
    if (!isRecord(context)) return { input: result, actingFor: settling.actingFor }
    // The rules read `agent_id` and `team_id` of the context where `agent` does not say them: judged, never filled.
    settle(context, 'agent_id', 'agent', 'context.agent_id', false, settling)
    settle(context, 'team_id', 'team', 'context.team_id', false, settling)
    const agent = context.agent === undefined ? {} : context.agent
    if (!isRecord(agent)) throw mismatch('context.agent', 'agent', identity.agentId)
    const settled = { ...agent }
    settle(settled, 'id', 'agent', 'context.agent.id', true, settling)
    settle(settled, 'team_id', 'team', 'context.agent.team_id', true, settling)
    if (Object.keys(settled).length > 0 || context.agent !== undefined) result.context = { ...context, agent: settled }
  }
  return { input: result, actingFor: settling.actingFor }
}

/** What the credential proves, as the tools see it (ctx.runtime.credential); undefined with auth off. */
export function provenCaller(identity: CallerIdentity | undefined): ProvenCaller | undefined {
  if (identity === undefined) return undefined
  return { role: identity.role ?? defaultRole, agentId: identity.agentId, teamId: identity.teamId }
}
