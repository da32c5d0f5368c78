import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import { expectCleanError, runMk } from '../helpers/mk.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Spawns the built `mk serve` (run `npm run build` first) on 127.0.0.1 and calls it with fetch. */

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

afterEach(async () => {
  await server?.stop()
  server = undefined
  await workspace?.cleanup()
  workspace = undefined
})

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const secretFact = 'The staging database password rotates on Fridays'

describe('mk serve', () => {
  it('serves every tool and the memory-graph contract routes over HTTP, with probes, the OpenAPI document and one log line per request', async () => {
    workspace = await makeWorkspace()
    server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' })
    const ready = await until(async () => {
      const response = await fetch(`${server?.url}/readyz`)
      return response.status === 200 ? ((await response.json()) as unknown) : undefined
    })
    expect(ready).toEqual({ status: 'ready' })

    const added = await server.post('/v1/tools/memory_add', { content: secretFact, layer: 'project', tags: ['ops'] })
    expect(added.status).toBe(200)
    const memoryId = added.body.memoryId as string
    const searched = await server.post('/v1/tools/memory_search', { query: 'staging database password' })
    expect(searched.status).toBe(200)
    expect((searched.body.results as { memoryId: string }[]).map((result) => result.memoryId)).toContain(memoryId)
    const recalled = await server.post('/v1/tools/memory_recall', { query: 'staging database password' })
    expect(recalled.status).toBe(200)
    expect(recalled.body.context).toMatchObject({ text: expect.stringContaining(memoryId) })
    const text = await server.post('/v1/memory/recall_text', { query_text: 'staging database password' })
    expect(text.body).toMatchObject({ tenant_id: 'default', scope: 'default', context: { text: (recalled.body.context as { text: string }).text } })

    const openApi = await (await fetch(`${server.url}/openapi.json`)).text()
    expect(openApi).toBe(await readFile(new URL('../../llm-tooling/openapi.json', import.meta.url), 'utf8'))

    const log = server
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const addLine = log.find((line) => line.tool === 'memory_add')
    expect(addLine).toMatchObject({
      request_id: expect.any(String),
      tenant: 'default',
      route: '/v1/tools/memory_add',
      status: 200,
      duration_ms: expect.any(Number),
      // Of the duration: the wait for a tool thread and the thread's own time, so an operator sees which one grew.
      queue_ms: expect.any(Number),
      thread_ms: expect.any(Number),
    })
    expect(added.headers.get('x-request-id')).toBe(addLine?.request_id)
    expect(server.stderr()).not.toContain('staging')
  })

  it('answers errors with the standard error object and the status of its code', async () => {
    workspace = await makeWorkspace()
    server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const invalid = await server.post('/v1/tools/memory_search', { query: 7 })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toMatchObject({ success: false, errorCode: 'INVALID_INPUT', details: { problems: [expect.objectContaining({ path: 'query' })] } })
    const notJson = await fetch(`${server.url}/v1/tools/memory_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{query' })
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toMatchObject({ errorCode: 'INVALID_INPUT' })
    const tooLarge = await server.post('/v1/tools/memory_search', { query: 'x'.repeat(5 * 1024 * 1024) })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toMatchObject({ errorCode: 'INVALID_INPUT' })
    const notJsonType = await fetch(`${server.url}/v1/tools/memory_search`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<query/>',
    })
    expect(notJsonType.status).toBe(415)
    expect(await notJsonType.json()).toMatchObject({ errorCode: 'INVALID_INPUT' })
    const array = await server.post('/v1/tools/memory_search', [1])
    expect(array.body).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('JSON object') })
    const missing = await server.post('/v1/tools/memory_show', { memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3' })
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ errorCode: 'NOT_FOUND' })
    const unknownRoute = await server.post('/v1/tools/no_such_tool', {})
    expect(unknownRoute.status).toBe(404)
    const otherTenant = await server.post('/v1/tools/memory_list', {}, { 'x-tenant-id': 'team-b' })
    expect(otherTenant.status).toBe(404)
    expect(otherTenant.body).toMatchObject({ errorCode: 'NOT_FOUND', details: { hint: expect.stringContaining('--data') } })
    const badTenant = await server.post('/v1/tools/memory_list', { tenant_id: '../etc' })
    expect(badTenant.status).toBe(400)
  })

  it('with --read-only refuses tools that change state with 403', async () => {
    workspace = await makeWorkspace()
    server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome }, args: ['--read-only'] })
    const refused = await server.post('/v1/tools/memory_add', { content: 'a fact', layer: 'project' })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ errorCode: 'FORBIDDEN' })
    expect((await server.post('/v1/tools/memory_list', {})).status).toBe(200)
  })

  it('refuses to start with auth off on an address other than loopback, unless --insecure', async () => {
    workspace = await makeWorkspace()
    const run = await runMk(['serve', '--host', '0.0.0.0', '--port', '0'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(expectCleanError(run)).toContain('--insecure')
  })

  it('refuses to start when --data names a file, not a folder', async () => {
    workspace = await makeWorkspace({ 'notes.txt': 'not a folder\n' })
    const run = await runMk(['serve', '--port', '0', '--data', 'notes.txt'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(expectCleanError(run)).toContain('--data notes.txt is a file')
  })

  it('refuses to start on a bad auth setting', async () => {
    workspace = await makeWorkspace()
    const run = await runMk(['serve', '--port', '0', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AUTH_MODE: 'api_key' } })
    expect(run.exitCode).toBe(2)
    expect(JSON.parse(run.stdout)).toMatchObject({ errorCode: 'INVALID_INPUT', message: expect.stringContaining('MK_API_KEYS_JSON') })
  })

  it('lets a call in flight finish on SIGTERM and exits 0', async () => {
    workspace = await makeWorkspace()
    server = await startServe({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const body = JSON.stringify({ content: 'written while stopping', layer: 'project' })
    // A request whose body is half sent is in flight for certain when the signal arrives.
    const pending = request(`${server.url}/v1/tools/memory_add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    })
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      pending.on('response', (response) => {
        let text = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
      })
      pending.on('error', reject)
    })
    pending.write(body.slice(0, 10))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const exited = server.stop()
    await new Promise((resolve) => setTimeout(resolve, 200))
    pending.end(body.slice(10))
    const answer = await answered
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toMatchObject({ success: true })
    expect(await exited).toBe(0)
    server = undefined
  })
})

describe('mk serve with tenants, auth and quotas', () => {
  const keys = { 'key-a': { tenant_id: 'team-a', agent_id: 'agent-a' }, 'key-b': { tenant_id: 'team-b', agent_id: 'agent-b' } }

  it('keeps each tenant in its own store: a key for one tenant never reads, finds or deletes another tenant’s memories', async () => {
    workspace = await makeWorkspace()
    const data = join(workspace.root, 'data')
    server = await startServe({
      cwd: workspace.root,
      args: ['--data', data],
      env: { MK_HOME: workspace.mkHome, MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: JSON.stringify(keys) },
    })
    const a = { 'x-api-key': 'key-a' }
    const b = { 'x-api-key': 'key-b' }
    const added = await server.post('/v1/tools/memory_add', { content: secretFact, layer: 'project' }, a)
    expect(added.status).toBe(200)
    const memoryId = added.body.memoryId as string
    expect((await server.post('/v1/tools/memory_show', { memoryId }, a)).status).toBe(200)

    expect((await server.post('/v1/tools/memory_list', {}, {})).status).toBe(401)
    expect((await server.post('/v1/tools/memory_list', {}, { 'x-api-key': 'key-c' })).status).toBe(401)
    const crossTenant = await server.post('/v1/tools/memory_list', { tenant_id: 'team-a' }, b)
    expect(crossTenant.status).toBe(403)
    expect(crossTenant.body).toMatchObject({ errorCode: 'FORBIDDEN', details: { reason: 'tenant_mismatch' } })
    const mismatch = await server.post('/v1/tools/memory_search', { query: 'x', consumer_agent_id: 'agent-a' }, b)
    expect(mismatch.status).toBe(403)
    expect(mismatch.body).toMatchObject({ details: { reason: 'identity_mismatch', field: 'consumer_agent_id' } })

    // Tenant B tries, in many shapes, to reach tenant A's memory: every answer must be empty, not found or refused.
    const attempts = [
      () => server?.post('/v1/tools/memory_show', { memoryId }, b),
      () => server?.post('/v1/tools/memory_search', { query: 'staging database password' }, b),
      () => server?.post('/v1/memory/recall_text', { query_text: 'staging database password' }, b),
      () => server?.post('/v1/memory/recall_text', { query_text: 'staging database password', scope: 'default' }, b),
      () => server?.post('/v1/tools/memory_list', {}, b),
      () => server?.post('/v1/tools/memory_delete', { memoryId }, b),
      () => server?.post('/v1/tools/memory_show', { memoryId, tenant_id: 'team-a' }, b),
      () => server?.post('/v1/tools/memory_search', { query: 'staging' }, { ...b, 'x-tenant-id': 'team-a' }),
      () => server?.post('/v1/tools/memory_list', { tenant_id: '../team-a' }, b),
    ]
    const statuses = new Map<number, number>()
    // An answer outside the four expected statuses is kept whole, so a failure says what it was.
    const unexpected: string[] = []
    for (let round = 0; round < 1000; round += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => attempts[(round + index) % attempts.length]?.()))
      for (const answer of answers) {
        // A refusal may repeat the id the caller sent; only an answer that found something could leak it.
        if (answer?.status === 200) expect(JSON.stringify(answer.body)).not.toContain(memoryId)
        expect(JSON.stringify(answer?.body)).not.toContain('password rotates')
        statuses.set(answer?.status ?? 0, (statuses.get(answer?.status ?? 0) ?? 0) + 1)
        if (![200, 400, 403, 404].includes(answer?.status ?? 0)) unexpected.push(`${answer?.status}: ${JSON.stringify(answer?.body)}`)
      }
    }
    expect([...statuses.keys()].sort(), unexpected.slice(0, 5).join('\n')).toEqual([200, 400, 403, 404])
    const stillThere = await server.post('/v1/tools/memory_show', { memoryId }, a)
    expect(stillThere.status).toBe(200)
    expect(stillThere.body).toMatchObject({ content: secretFact })
  }, 120_000)

  it('takes HS256 JWTs and refuses an expired one with 401', async () => {
    workspace = await makeWorkspace()
    const secret = 'a-test-secret-of-at-least-thirty-two-characters'
    server = await startServe({
      cwd: workspace.root,
      args: ['--data', join(workspace.root, 'data')],
      env: { MK_HOME: workspace.mkHome, MK_AUTH_MODE: 'jwt', MK_JWT_HS256_SECRET: secret },
    })
    const sign = (exp: number): Promise<string> =>
      new SignJWT({ tenant_id: 'team-a', sub: 'agent-a' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(new TextEncoder().encode(secret))
    const now = Math.floor(Date.now() / 1000)
    const valid = await server.post('/v1/tools/memory_list', {}, { authorization: `Bearer ${await sign(now + 60)}` })
    expect(valid.status).toBe(200)
    const expired = await server.post('/v1/tools/memory_list', {}, { authorization: `Bearer ${await sign(now - 3600)}` })
    expect(expired.status).toBe(401)
    expect(expired.body).toMatchObject({ errorCode: 'UNAUTHORIZED', message: expect.stringContaining('expired') })
    expect(server.stderr()).not.toContain('Bearer')
  })

  it('answers 429 with Retry-After and the class reason once a tenant is over its quota, per tenant', async () => {
    workspace = await makeWorkspace()
    server = await startServe({
      cwd: workspace.root,
      args: ['--data', join(workspace.root, 'data')],
      env: { MK_HOME: workspace.mkHome, MK_TENANT_QUOTAS: JSON.stringify({ recall: { rps: 0.2, burst: 2 } }) },
    })
    for (let call = 0; call < 2; call++) expect((await server.post('/v1/tools/memory_list', {}, { 'x-tenant-id': 'team-a' })).status).toBe(200)
    const limited = await server.post('/v1/tools/memory_list', {}, { 'x-tenant-id': 'team-a' })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^[1-5]$/)
    expect(limited.body).toMatchObject({ errorCode: 'RATE_LIMITED', retryable: true, details: { reason: 'tenant_rate_limited_recall' } })
    expect((await server.post('/v1/tools/memory_list', {}, { 'x-tenant-id': 'team-b' })).status).toBe(200)
    expect((await server.post('/v1/tools/memory_add', { content: 'writes are another class', layer: 'project' }, { 'x-tenant-id': 'team-a' })).status).toBe(200)
  })
})
