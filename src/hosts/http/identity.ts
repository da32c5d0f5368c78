import type { Role } from '../../config/credential.js'

/** Who is calling, as the credential says (or, with auth off, as the request says). */
export interface CallerIdentity {
  tenantId: string
  agentId?: string
  teamId?: string
  /** The credential's role; a credential that names none is a writer. */
  role?: Role
}
