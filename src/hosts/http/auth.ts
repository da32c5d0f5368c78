import { MkError } from '../../errors.js'
import { loadApiKeys, type ApiKeys } from './api-keys.js'
import type { CallerIdentity } from './identity.js'
import { identifyJwt, type JwtSettings } from './jwt.js'

export const authModes = ['off', 'api_key', 'jwt', 'api_key_or_jwt'] as const
export type AuthMode = (typeof authModes)[number]

/** How the server tells who calls: nothing (off), an API key, a JWT, or either. */
export interface Authenticator {
  mode: AuthMode
  /** The credential's identity; undefined when auth is off (the request then says which tenant). */
  identify(headers: { apiKey: string | undefined; authorization: string | undefined }): Promise<CallerIdentity | undefined>
}

const defaultClockSkewSeconds = 30

function jwtSettings(env: NodeJS.ProcessEnv): JwtSettings {
  const secret = env.MK_JWT_HS256_SECRET
  if (secret === undefined || secret.length < 32) {
    throw new MkError('INVALID_INPUT', 'JWT auth needs MK_JWT_HS256_SECRET of at least 32 characters', {
      details: { hint: 'set MK_JWT_HS256_SECRET to a random secret, e.g. openssl rand -hex 32' },
    })
  }
  const skewText = env.MK_JWT_CLOCK_SKEW_S
  const skew = skewText === undefined || skewText === '' ? defaultClockSkewSeconds : Number(skewText)
  if (!Number.isInteger(skew) || skew < 0) {
    throw new MkError('INVALID_INPUT', `MK_JWT_CLOCK_SKEW_S must be a whole number of seconds, got "${skewText}"`, {
      details: { field: 'MK_JWT_CLOCK_SKEW_S' },
    })
  }
  return { secret: new TextEncoder().encode(secret), clockSkewSeconds: skew }
}

export function authModeFrom(env: NodeJS.ProcessEnv): AuthMode {
  const mode = env.MK_AUTH_MODE === undefined || env.MK_AUTH_MODE === '' ? 'off' : env.MK_AUTH_MODE
  if ((authModes as readonly string[]).includes(mode)) return mode as AuthMode
  throw new MkError('INVALID_INPUT', `MK_AUTH_MODE must be one of ${authModes.join(', ')}, got "${mode}"`, { details: { field: 'MK_AUTH_MODE' } })
}

function missingCredential(mode: AuthMode): MkError {
  const wanted =
    mode === 'api_key' ? 'an X-Api-Key header' : mode === 'jwt' ? 'an Authorization: Bearer <JWT> header' : 'an X-Api-Key or Authorization: Bearer header'
  return new MkError('UNAUTHORIZED', `this server needs ${wanted}`, { details: { hint: `auth mode ${mode}` } })
}

/** Nobody is asked for a credential: auth off, and the local socket, whose file mode (0600) already admits only its user. */
export const noAuthentication: Authenticator = { mode: 'off', identify: () => Promise.resolve(undefined) }

/** The authenticator MK_AUTH_MODE asks for; keys and secrets are read once, at start, and a bad setting stops the start. */
export async function createAuthenticator(env: NodeJS.ProcessEnv): Promise<Authenticator> {
  const mode = authModeFrom(env)
  if (mode === 'off') return noAuthentication
  const keys: ApiKeys | undefined = mode === 'jwt' ? undefined : await loadApiKeys(env)
  const jwt = mode === 'api_key' ? undefined : jwtSettings(env)
  return {
    mode,
    async identify({ apiKey, authorization }) {
      if (keys !== undefined && apiKey !== undefined) {
        const identity = keys.identify(apiKey)
        if (identity === undefined) throw new MkError('UNAUTHORIZED', 'the API key is not known to this server', { details: { hint: 'check X-Api-Key' } })
        return identity
      }
      const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1]
      if (jwt !== undefined && bearer !== undefined) return identifyJwt(bearer, jwt)
      throw missingCredential(mode)
    },
  }
}
