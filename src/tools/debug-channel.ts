import { timingSafeEqual } from 'node:crypto'
import type { RuntimeEnv } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { hasAdminRole } from './roles.js'

type DebugRuntime = Pick<RuntimeEnv, 'adminToken' | 'production' | 'credential'>

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * memory_recall's debug channel (return_debug) is for the server's admin. A
 * caller with a credential (auth on) needs the admin role or MK_ADMIN_TOKEN; a
 * local caller (CLI, MCP, socket, auth off) needs MK_ADMIN_TOKEN when one is
 * set, and nothing outside production when none is.
 */
export function requireDebugAccess(token: string | undefined, runtime: DebugRuntime): void {
  const tokenMatches = token !== undefined && runtime.adminToken !== undefined && safeEqual(token, runtime.adminToken)
  const allowed =
    runtime.credential !== undefined ? hasAdminRole(runtime.credential) || tokenMatches : runtime.adminToken === undefined ? !runtime.production : tokenMatches
  if (allowed) return
  const hint =
    runtime.credential !== undefined
      ? 'use a credential with role admin, or pass MK_ADMIN_TOKEN as admin_token'
      : runtime.adminToken === undefined
        ? 'in production, set MK_ADMIN_TOKEN and pass it as admin_token'
        : 'pass admin_token'
  throw new MkError('FORBIDDEN', 'return_debug needs the admin role or the admin token (MK_ADMIN_TOKEN)', { details: { reason: 'debug_forbidden', hint } })
}

/** Who may use the debug channel on a server with this auth, in words for its start-up line. */
export function debugChannelExposure(authOn: boolean, runtime: Omit<DebugRuntime, 'credential'>): string {
  if (authOn) return runtime.adminToken === undefined ? 'admin role only' : 'admin role or MK_ADMIN_TOKEN'
  if (runtime.adminToken !== undefined) return 'MK_ADMIN_TOKEN only'
  if (runtime.production) return 'closed (production, no MK_ADMIN_TOKEN)'
  return 'open to every caller (auth off, not production: set MK_ENV=production or MK_ADMIN_TOKEN to close it)'
}
