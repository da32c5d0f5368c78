/** What a caller of the team server may do: read, also write its own and shared lanes, or also run system tools and act for others. */
export const roles = ['reader', 'writer', 'admin'] as const
export type Role = (typeof roles)[number]

/** A credential that names no role is a writer: it can do what every key could before roles, except system tools. */
export const defaultRole: Role = 'writer'

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value)
}

/**
 * What a verified credential (API key or JWT) proved about a caller of the team
 * server. Absent for a local caller: the CLI, MCP over stdio, the local socket
 * and a server with auth off, where the caller is the machine's own user.
 */
export interface ProvenCaller {
  role: Role
  /** The agent the credential names; without one the caller has no agent, user or session layer and no private lane. */
  agentId: string | undefined
  teamId: string | undefined
}
