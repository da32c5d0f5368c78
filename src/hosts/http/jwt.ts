import { isRole, roles } from '../../config/credential.js'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import { tenantIdPattern } from './routes.js'
import type { CallerIdentity } from './identity.js'

export interface JwtSettings {
  secret: Uint8Array
  clockSkewSeconds: number
}

function claim(payload: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = payload[name]
    if (typeof value === 'string' && value !== '') return value
  }
  return undefined
}

function unauthorized(message: string): MkError {
  return new MkError('UNAUTHORIZED', message, { details: { hint: 'send a JWT signed with HS256 by the server’s secret, within exp/nbf, carrying tenant_id' } })
}

/** Verifies an HS256 JWT (only HS256: `alg: none` and every other algorithm are refused) and reads who it names. */
export async function identifyJwt(token: string, settings: JwtSettings): Promise<CallerIdentity> {
  const { jwtVerify, errors } = await importPackage<typeof import('jose')>('jose')
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, settings.secret, { algorithms: ['HS256'], clockTolerance: settings.clockSkewSeconds }))
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized('the JWT has expired')
    if (error instanceof errors.JWTClaimValidationFailed) throw unauthorized(`the JWT is not valid now: ${error.message}`)
    throw unauthorized('the JWT is not valid (malformed, wrong signature or not HS256)')
  }
  const tenantId = claim(payload, 'tenant_id', 'tenant')
  if (tenantId === undefined || !tenantIdPattern.test(tenantId)) throw unauthorized('the JWT names no valid tenant (claim tenant_id or tenant)')
  const agentId = claim(payload, 'agent_id', 'sub')
  const teamId = claim(payload, 'team_id')
  const role = claim(payload, 'role')
  if (role !== undefined && !isRole(role)) throw unauthorized(`the JWT's role "${role}" is not one of ${roles.join(', ')}`)
  return {
    tenantId,
    ...(agentId === undefined ? {} : { agentId }),
    ...(teamId === undefined ? {} : { teamId }),
    ...(role === undefined ? {} : { role }),
  }
}
