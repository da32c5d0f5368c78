import type { ProvenCaller, Role } from '../config/credential.js'
import { MkError } from '../errors.js'
import type { AnyTool, Tier } from './define.js'

/** The tiers each role may call: the one table every host (HTTP, socket, MCP, CLI) is checked against, in the dispatcher. */
export const tiersOfRole: Readonly<Record<Role, readonly Tier[]>> = {
  reader: ['read_only'],
  writer: ['read_only', 'workspace'],
  admin: ['read_only', 'workspace', 'system', 'elevated'],
}

/** Only an admin may name another agent or team than its credential's (audited in the request log) or use the debug channel without the admin token. */
export function hasAdminRole(caller: ProvenCaller | undefined): boolean {
  return caller?.role === 'admin'
}

/** Refuses a tool the caller's role does not reach; a local caller (no credential) has no role and is not limited here. */
export function requireRoleAllows(tool: AnyTool, caller: ProvenCaller | undefined): void {
  if (caller === undefined || tiersOfRole[caller.role].includes(tool.tier)) return
  const needed = (Object.keys(tiersOfRole) as Role[]).find((role) => tiersOfRole[role].includes(tool.tier))
  throw new MkError('FORBIDDEN', `${tool.name} (tier ${tool.tier}) is not allowed for the role ${caller.role}`, {
    details: {
      reason: 'role_forbidden',
      tool: tool.name,
      tier: tool.tier,
      role: caller.role,
      hint: `use a credential with role ${needed ?? 'admin'}; ${caller.role} may call tiers ${tiersOfRole[caller.role].join(', ')}`,
    },
  })
}
