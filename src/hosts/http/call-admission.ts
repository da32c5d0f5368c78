import { MkError } from '../../errors.js'
import type { AnyTool } from '../../tools/define.js'
import type { ToolRateLimits } from '../../tools/rate-limits.js'
import { requireRoleAllows } from '../../tools/roles.js'
import { provenCaller, resolveTenant, withIdentity } from './caller-input.js'
import type { CallerIdentity } from './identity.js'
import { defaultScope, requireScope } from './tenants.js'
import type { QuotaClass, TenantQuotas } from './quotas.js'
import type { RequestFacts } from './request-facts.js'

function quotaClassOf(tool: AnyTool, input: Record<string, unknown>): QuotaClass {
  if (tool.tier !== 'read_only') return 'write'
  return input.return_debug === true ? 'debug' : 'recall'
}

/** Who a credential proves the caller is: its tenant, agent and team (every scope of theirs together). */
function callerKey(tenantId: string, identity: CallerIdentity): string {
  return [tenantId, identity.agentId ?? '', identity.teamId ?? ''].join('\u0000')
}

export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>
  throw new MkError('INVALID_INPUT', 'the request body must be a JSON object (the tool input)', {
    details: { problems: [{ path: '(root)', expected: 'object', received: Array.isArray(body) ? 'array' : typeof body, message: 'expected a JSON object' }] },
  })
}

export interface AdmissionRequest {
  tool: AnyTool
  body: unknown
  /** X-Tenant-Id, when sent. */
  headerTenant: string | undefined
  identity: CallerIdentity | undefined
  /** The tool's input fields, so identity fields are filled in only where the tool has them. */
  inputFields: ReadonlySet<string>
  quotas: TenantQuotas
  /** Each tool's manifest rate limit, counted per credential's caller (all scopes together). */
  toolLimits: ToolRateLimits
}

/**
 * Whether a call may run, and in which tenant and scope with which input: the tenant, then the role
 * (a caller that may not call the tool learns nothing from how its identity fields would be
 * judged), then the identity fields, then the tenant's quota and the tool's rate limit. Records the facts for the log as it goes.
 */
export function admitCall(request: AdmissionRequest, known: RequestFacts): { tenantId: string; scope: string; input: Record<string, unknown> } {
  const { tenant_id: bodyTenant, scope: bodyScope, ...body } = bodyObject(request.body)
  const tenantId = resolveTenant(bodyTenant, request.headerTenant, request.identity)
  known.tenant = tenantId
  const scope = bodyScope === undefined ? defaultScope : requireScope(bodyScope)
  requireRoleAllows(request.tool, provenCaller(request.identity))
  const { input, actingFor } = withIdentity(body, request.identity, request.inputFields)
  if (actingFor.length > 0) known.actingFor = Object.fromEntries(actingFor.map((entry) => [entry.field, entry.value]))
  request.quotas.take(tenantId, quotaClassOf(request.tool, input))
  // A server without authentication trusts whoever reaches it (the operator's own loopback): only a credential's caller is limited.
  if (request.identity !== undefined) request.toolLimits.take(callerKey(tenantId, request.identity), request.tool)
  return { tenantId, scope, input }
}
