import { fastify, type FastifyInstance, type FastifyRequest } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { createAuthenticator } from '../../../src/hosts/http/auth.js'
import { authPlugin } from '../../../src/hosts/http/auth-plugin.js'
import type { CallerIdentity } from '../../../src/hosts/http/identity.js'
import { errorsPlugin } from '../../../src/hosts/http/errors-plugin.js'
import { probesPlugin } from '../../../src/hosts/http/probes-plugin.js'
import { requestFactsStore } from '../../../src/hosts/http/request-facts.js'
import { requestLogPlugin } from '../../../src/hosts/http/request-log-plugin.js'
import { shutdownPlugin, type ServerState } from '../../../src/hosts/http/shutdown-plugin.js'

const keysJson = JSON.stringify({ 'key-a': { tenant_id: 'team-a', agent_id: 'ci' } })
let app: FastifyInstance | undefined

afterEach(async () => {
  await app?.close()
  app = undefined
})

/** A server of the root plugins, as createHttpApp registers them, logging into `lines`. */
async function rootServer(state: ServerState, lines: string[]): Promise<FastifyInstance> {
  const facts = requestFactsStore()
  app = fastify({ logger: false, bodyLimit: 64 })
  await app.register(errorsPlugin, { maxBodyBytes: 64, facts })
  await app.register(requestLogPlugin, { facts, log: (line) => lines.push(line) })
  await app.register(shutdownPlugin, state)
  await app.register(probesPlugin, state)
  return app
}

describe('the probes and shutdown plugins', () => {
  it('answer /readyz 503 while warming up, 200 once ready, and every request 503 UNAVAILABLE once closing', async () => {
    const state: ServerState = { closing: false, readiness: undefined }
    const server = await rootServer(state, [])
    expect((await server.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    const warming = await server.inject({ method: 'GET', url: '/readyz' })
    expect(warming.statusCode).toBe(503)
    expect(warming.json()).toMatchObject({ errorCode: 'UNAVAILABLE' })
    state.readiness = { ready: true }
    expect((await server.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' })
    state.closing = true
    const closing = await server.inject({ method: 'GET', url: '/healthz' })
    expect(closing.statusCode).toBe(503)
    expect(closing.json()).toMatchObject({ errorCode: 'UNAVAILABLE', message: 'the server is shutting down' })
    expect(closing.headers['x-request-id']).toBeDefined()
  })
})

describe('the errors and request log plugins', () => {
  it('apply to routes of child contexts: bad JSON is 400 INVALID_INPUT, a body over the limit 413, an unknown route 404, each logged with its code', async () => {
    const lines: string[] = []
    const server = await rootServer({ closing: false, readiness: { ready: true } }, lines)
    await server.register(async (child) => {
      child.post('/echo', async (request) => request.body ?? {})
    })
    const bad = await server.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{nope' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ errorCode: 'INVALID_INPUT' })
    const large = await server.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(100) }),
    })
    expect(large.statusCode).toBe(413)
    expect(large.json()).toMatchObject({ errorCode: 'INVALID_INPUT', details: { limit_bytes: 64 } })
    const missing = await server.inject({ method: 'POST', url: '/nowhere' })
    expect(missing.statusCode).toBe(404)
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(logged.map((entry) => [entry.route, entry.status, entry.error_code])).toEqual([
      ['/echo', 400, 'INVALID_INPUT'],
      ['/echo', 413, 'INVALID_INPUT'],
      ['/nowhere', 404, 'NOT_FOUND'],
    ])
  })
})

describe('the authentication plugin', () => {
  it('identifies the caller once for the routes of its context only, and refuses a bad key with 401 before the handler runs', async () => {
    const lines: string[] = []
    const server = await rootServer({ closing: false, readiness: { ready: true } }, lines)
    const auth = await createAuthenticator({ MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: keysJson })
    let identifications = 0
    const counted = { ...auth, identify: (headers: Parameters<typeof auth.identify>[0]) => ((identifications += 1), auth.identify(headers)) }
    const facts = requestFactsStore()
    const callers = new WeakMap<FastifyRequest, CallerIdentity | undefined>()
    let handled = 0
    await server.register(async (tools) => {
      await tools.register(authPlugin, { auth: counted, callers, facts, forCaller: (error) => error })
      tools.post('/v1/tools/who', async (request) => ((handled += 1), callers.get(request) ?? {}))
    })
    const known = await server.inject({ method: 'POST', url: '/v1/tools/who', headers: { 'x-api-key': 'key-a' } })
    expect(known.json()).toEqual({ tenantId: 'team-a', agentId: 'ci' })
    expect(identifications).toBe(1)
    const refused = await server.inject({ method: 'POST', url: '/v1/tools/who', headers: { 'x-api-key': 'wrong' } })
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toMatchObject({ errorCode: 'UNAUTHORIZED' })
    expect(handled).toBe(1)
    expect((await server.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    expect(identifications).toBe(2)
  })
})
