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

const set = (value: string | undefined): boolean => value !== undefined && value !== ''

/** Which credentials the environment configures, by the variable that configures them. */
function configuredCredentials(env: NodeJS.ProcessEnv): { keys?: string; jwt?: string } {
  const keys = set(env.MK_API_KEYS_JSON) ? 'MK_API_KEYS_JSON' : set(env.MK_API_KEYS_FILE) ? 'MK_API_KEYS_FILE' : undefined
  return { ...(keys === undefined ? {} : { keys }), ...(set(env.MK_JWT_HS256_SECRET) ? { jwt: 'MK_JWT_HS256_SECRET' } : {}) }
}

/**
 * MK_AUTH_MODE, or, when it is not set, the mode the configured credentials imply: an operator who set keys
 * expects them checked, so a forgotten MK_AUTH_MODE must not leave the server open.
 */
export function authModeFrom(env: NodeJS.ProcessEnv): AuthMode {
  const credentials = configuredCredentials(env)
  if (!set(env.MK_AUTH_MODE)) {
    if (credentials.keys !== undefined) return credentials.jwt === undefined ? 'api_key' : 'api_key_or_jwt'
    return credentials.jwt === undefined ? 'off' : 'jwt'
  }
  const mode = env.MK_AUTH_MODE ?? ''
  if (!(authModes as readonly string[]).includes(mode)) {
    throw new MkError('INVALID_INPUT', `MK_AUTH_MODE must be one of ${authModes.join(', ')}, got "${mode}"`, { details: { field: 'MK_AUTH_MODE' } })
  }
  const named = [credentials.keys, credentials.jwt].filter((name) => name !== undefined)
  if (mode === 'off' && named.length > 0) {
    throw new MkError(
      'INVALID_INPUT',
      `MK_AUTH_MODE=off but ${named.join(' and ')} ${named.length > 1 ? 'are' : 'is'} set: those credentials would never be checked`,
      {
        details: { field: 'MK_AUTH_MODE', hint: `unset MK_AUTH_MODE (the credentials then choose the mode) or unset ${named.join(' and ')}` },
      },
    )
  }
  return mode as AuthMode
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
