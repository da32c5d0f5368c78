import { createHash } from 'node:crypto'
import { SignJWT, UnsecuredJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { createAuthenticator } from '../../../src/hosts/http/auth.js'

const secret = 'a-test-secret-of-at-least-thirty-two-characters'
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

async function jwt(claims: Record<string, unknown>, options: { secret?: string; exp?: number; nbf?: number } = {}): Promise<string> {
  const builder = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt()
  if (options.exp !== undefined) builder.setExpirationTime(options.exp)
  if (options.nbf !== undefined) builder.setNotBefore(options.nbf)
  return builder.sign(new TextEncoder().encode(options.secret ?? secret))
}

const now = (): number => Math.floor(Date.now() / 1000)

describe('api keys', () => {
  const keysJson = JSON.stringify({
    'plain-key-a': { tenant_id: 'team-a', agent_id: 'ci' },
    [`sha256:${sha256('hashed-key-b')}`]: { tenant_id: 'team-b', team_id: 'platform', role: 'admin' },
  })

  it('knows plain and sha256-stored keys and refuses unknown or missing ones with UNAUTHORIZED', async () => {
    const auth = await createAuthenticator({ MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: keysJson })
    await expect(auth.identify({ apiKey: 'plain-key-a', authorization: undefined })).resolves.toEqual({ tenantId: 'team-a', agentId: 'ci' })
    await expect(auth.identify({ apiKey: 'hashed-key-b', authorization: undefined })).resolves.toEqual({
      tenantId: 'team-b',
      teamId: 'platform',
      role: 'admin',
    })
    await expect(auth.identify({ apiKey: `sha256:${sha256('hashed-key-b')}`, authorization: undefined })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(auth.identify({ apiKey: 'nope', authorization: undefined })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(auth.identify({ apiKey: undefined, authorization: undefined })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringContaining('X-Api-Key'),
    })
  })

  it('refuses to start without keys, with a malformed registry or a bad tenant id', async () => {
    await expect(createAuthenticator({ MK_AUTH_MODE: 'api_key' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('MK_API_KEYS_JSON'),
    })
    await expect(createAuthenticator({ MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: '{' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(createAuthenticator({ MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: '{"k":{"tenant_id":"../etc"}}' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(createAuthenticator({ MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: '{"sha256:abcd":{"tenant_id":"a"}}' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    // A role the server does not know would be enforced as nothing: refused at start (issue 25, item 2).
    await expect(createAuthenticator({ MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: '{"k":{"tenant_id":"a","role":"superuser"}}' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expect(createAuthenticator({ MK_AUTH_MODE: 'maybe' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('MK_AUTH_MODE'),
    })
  })
})

describe('jwt', () => {
  const env = { MK_AUTH_MODE: 'jwt', MK_JWT_HS256_SECRET: secret, MK_JWT_CLOCK_SKEW_S: '5' }
  const bearer = (token: string): { apiKey: undefined; authorization: string } => ({ apiKey: undefined, authorization: `Bearer ${token}` })

  it('reads tenant, agent, team and role from the claims (tenant_id or tenant, agent_id or sub)', async () => {
    const auth = await createAuthenticator(env)
    await expect(
      auth.identify(bearer(await jwt({ tenant_id: 'team-a', sub: 'agent-1', team_id: 'core', role: 'writer' }, { exp: now() + 60 }))),
    ).resolves.toEqual({
      tenantId: 'team-a',
      agentId: 'agent-1',
      teamId: 'core',
      role: 'writer',
    })
    await expect(auth.identify(bearer(await jwt({ tenant: 'team-b', agent_id: 'agent-2', sub: 'ignored' })))).resolves.toEqual({
      tenantId: 'team-b',
      agentId: 'agent-2',
    })
  })

  it('refuses expired, not-yet-valid, wrong-secret, alg none and tenantless tokens with UNAUTHORIZED', async () => {
    const auth = await createAuthenticator(env)
    const refused = [
      await jwt({ tenant_id: 'team-a' }, { exp: now() - 60 }),
      await jwt({ tenant_id: 'team-a' }, { nbf: now() + 60 }),
      await jwt({ tenant_id: 'team-a' }, { secret: 'another-secret-of-at-least-thirty-two-chars' }),
      new UnsecuredJWT({ tenant_id: 'team-a' }).encode(),
      await jwt({ sub: 'agent-1' }),
      await jwt({ tenant_id: 'Team A/..' }),
      await jwt({ tenant_id: 'team-a', role: 'superuser' }),
      'not.a.jwt',
    ]
    for (const token of refused) await expect(auth.identify(bearer(token)), token).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('accepts a token just past exp or just before nbf within the configured skew', async () => {
    const auth = await createAuthenticator(env)
    await expect(auth.identify(bearer(await jwt({ tenant_id: 'team-a' }, { exp: now() - 2 })))).resolves.toMatchObject({ tenantId: 'team-a' })
    await expect(auth.identify(bearer(await jwt({ tenant_id: 'team-a' }, { nbf: now() + 2 })))).resolves.toMatchObject({ tenantId: 'team-a' })
  })

  it('needs a secret of at least 32 characters and a whole-second skew', async () => {
    await expect(createAuthenticator({ MK_AUTH_MODE: 'jwt', MK_JWT_HS256_SECRET: 'short' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(createAuthenticator({ ...env, MK_JWT_CLOCK_SKEW_S: 'soon' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('api_key_or_jwt takes either credential', async () => {
    const auth = await createAuthenticator({ ...env, MK_AUTH_MODE: 'api_key_or_jwt', MK_API_KEYS_JSON: '{"k1":{"tenant_id":"team-a"}}' })
    await expect(auth.identify({ apiKey: 'k1', authorization: undefined })).resolves.toEqual({ tenantId: 'team-a' })
    await expect(auth.identify(bearer(await jwt({ tenant_id: 'team-b' })))).resolves.toEqual({ tenantId: 'team-b' })
    await expect(auth.identify({ apiKey: undefined, authorization: 'Basic abc' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

describe('the mode a server runs in when MK_AUTH_MODE is not set', () => {
  const keysJson = JSON.stringify({ 'key-a': { tenant_id: 'team-a' } })

  // An operator who configured keys but forgot MK_AUTH_MODE used to get a server that checked nothing.
  it('checks the credentials the operator configured', async () => {
    const byKeys = await createAuthenticator({ MK_API_KEYS_JSON: keysJson })
    expect(byKeys.mode).toBe('api_key')
    await expect(byKeys.identify({ apiKey: undefined, authorization: undefined })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(byKeys.identify({ apiKey: 'key-a', authorization: undefined })).resolves.toEqual({ tenantId: 'team-a' })

    expect((await createAuthenticator({ MK_JWT_HS256_SECRET: secret })).mode).toBe('jwt')
    expect((await createAuthenticator({ MK_API_KEYS_JSON: keysJson, MK_JWT_HS256_SECRET: secret })).mode).toBe('api_key_or_jwt')
  })

  it('stays off when no credential is configured', async () => {
    expect((await createAuthenticator({})).mode).toBe('off')
    expect((await createAuthenticator({ MK_AUTH_MODE: '', MK_API_KEYS_JSON: '' })).mode).toBe('off')
  })

  it('refuses MK_AUTH_MODE=off beside configured credentials, naming both', async () => {
    await expect(createAuthenticator({ MK_AUTH_MODE: 'off', MK_API_KEYS_FILE: '/srv/keys.json' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/MK_AUTH_MODE=off.*MK_API_KEYS_FILE/),
    })
  })
})
