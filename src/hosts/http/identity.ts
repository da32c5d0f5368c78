/** Who is calling, as the credential says (or, with auth off, as the request says). */
export interface CallerIdentity {
  tenantId: string
  agentId?: string
  teamId?: string
  role?: string
}
