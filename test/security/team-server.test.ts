import { createHash } from 'node:crypto'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * Issue 25, items 1-4 and 12, against the built `mk serve` (run `npm run build`
 * first) on 127.0.0.1 with API keys and JWTs of one tenant: what one agent's
 * credential can reach of another agent's memories, entities and receipts.
 */

const jwtSecret = 'a-test-secret-of-at-least-thirty-two-characters'
const keys = {
  'key-x': { tenant_id: 'default', agent_id: 'x', team_id: 'tm', role: 'writer' },
  'key-y': { tenant_id: 'default', agent_id: 'y' },
  'key-reader': { tenant_id: 'default', agent_id: 'r', role: 'reader' },
  'key-admin': { tenant_id: 'default', agent_id: 'ops', role: 'admin' },
}
const x = { 'x-api-key': 'key-x' }
const y = { 'x-api-key': 'key-y' }
const reader = { 'x-api-key': 'key-reader' }
const admin = { 'x-api-key': 'key-admin' }

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

beforeAll(async () => {
  workspace = await makeWorkspace({ '.mkrc': 'memory:\n  receipts: true\n' })
  server = await startServe({
    cwd: workspace.root,
    env: {
      MK_HOME: workspace.mkHome,
      MK_AUTH_MODE: 'api_key_or_jwt',
      MK_API_KEYS_JSON: JSON.stringify(keys),
      MK_JWT_HS256_SECRET: jwtSecret,
      MK_ADMIN_TOKEN: undefined,
      MK_ENV: undefined,
      MK_AGENT_ID: 'server-agent',
      MK_TENANT_QUOTAS: undefined,
    },
  })
})

afterAll(async () => {
  await server?.stop()
  await workspace?.cleanup()
})

async function post(path: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  if (server === undefined) throw new Error('the server did not start')
  return server.post(path, body, headers)
}

async function tenantOnlyJwt(): Promise<Record<string, string>> {
  const token = await new SignJWT({ tenant_id: 'default' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
    .sign(new TextEncoder().encode(jwtSecret))
  return { authorization: `Bearer ${token}` }
}

async function add(headers: Record<string, string>, body: Record<string, unknown>): Promise<string> {
  const answer = await post('/v1/tools/memory_add', body, headers)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body.memoryId as string
}

const idsOf = (answer: { body: Record<string, unknown> }): string[] => JSON.stringify(answer.body).match(/mem_[0-9A-Z]{26}/g) ?? []

describe('identity comes from the credential (issue 25, item 1)', () => {
  it('a key without team_id cannot read or write a team’s private lane, a JWT without agent_id cannot read an agent’s', async () => {
    const teamSecret = await add(x, {
      content: 'Team tm keeps the incident runbook in vault path ops/tm',
      layer: 'project',
      lane: 'private',
      owner_team_id: 'tm',
    })
    const agentSecret = await add(x, {
      content: 'Agent x keeps its scratch notes in the orchid bucket',
      layer: 'project',
      lane: 'private',
      owner_agent_id: 'x',
    })

    const asTeam = await post('/v1/tools/memory_search', { query: 'incident runbook vault', consumer_team_id: 'tm' }, y)
    expect(asTeam.status).toBe(403)
    expect(asTeam.body).toMatchObject({ errorCode: 'FORBIDDEN', details: { reason: 'identity_mismatch', field: 'consumer_team_id' } })
    expect(idsOf(asTeam)).not.toContain(teamSecret)
    const intoTeam = await post('/v1/tools/memory_add', { content: 'planted', layer: 'project', lane: 'private', owner_team_id: 'tm' }, y)
    expect(intoTeam.status).toBe(403)
    expect(intoTeam.body).toMatchObject({ details: { reason: 'identity_mismatch', field: 'owner_team_id' } })

    const jwt = await tenantOnlyJwt()
    const asAgent = await post('/v1/tools/memory_search', { query: 'scratch notes orchid bucket', consumer_agent_id: 'x' }, jwt)
    expect(asAgent.status).toBe(403)
    expect(asAgent.body).toMatchObject({ details: { reason: 'identity_mismatch', field: 'consumer_agent_id' } })
    const plain = await post('/v1/tools/memory_search', { query: 'scratch notes orchid bucket' }, jwt)
    expect(plain.status).toBe(200)
    expect(idsOf(plain)).not.toContain(agentSecret)
    // Nor does the server's own MK_AGENT_ID stand in for a credential that names no agent.
    expect((await post('/v1/tools/memory_list', { layers: ['agent'] }, jwt)).body).toMatchObject({ memories: [] })
  })

  it('an admin may act for another agent, and the request log says so', async () => {
    const agentSecret = await add(x, { content: 'Agent x tracks the quarterly cost report in sheet 7', layer: 'project' })
    const forX = await post('/v1/tools/memory_show', { memoryId: agentSecret, consumer_agent_id: 'x' }, admin)
    expect(forX.status).toBe(200)
    await expect.poll(() => server?.stderr() ?? '').toMatch(/"tool":"memory_show".*"acting_for":\{"consumer_agent_id":"x"\}/)
  })
})

describe('roles are enforced (issue 25, item 2)', () => {
  it('a reader key adds nothing and deletes nothing; a writer runs no system tool; an admin does', async () => {
    const refused = { errorCode: 'FORBIDDEN', details: { reason: 'role_forbidden', role: 'reader' } }
    expect(await post('/v1/tools/memory_add', { content: 'a reader was here', layer: 'project' }, reader)).toMatchObject({ status: 403, body: refused })
    const entity = { name: 'Ledger', entityType: 'service', observations: ['keeps the books'] }
    expect(await post('/v1/tools/create_entities', { entities: [entity] }, reader)).toMatchObject({ status: 403, body: refused })
    expect(await post('/v1/tools/delete_entities', { entityNames: ['Ledger'] }, reader)).toMatchObject({ status: 403, body: refused })
    expect((await post('/v1/tools/memory_list', {}, reader)).status).toBe(200)

    const system = await post('/v1/tools/sync_now', {}, y)
    expect(system).toMatchObject({ status: 403, body: { details: { reason: 'role_forbidden', role: 'writer', tier: 'system' } } })
    expect((await post('/v1/tools/sync_now', {}, admin)).body).not.toMatchObject({ details: { reason: 'role_forbidden' } })
  })
})

describe('each agent has its own user and session layers, entities and receipts (issue 25, item 3)', () => {
  it('an agent of the tenant never sees another’s user memories, sessions or entities', async () => {
    const userNote = await add(x, { content: 'x prefers the blue deployment dashboard' })
    const sessionNote = await add(x, { content: 'x is halfway through the schema migration', layer: 'session', session: 's1' })
    expect(idsOf(await post('/v1/tools/memory_list', {}, x))).toEqual(expect.arrayContaining([userNote]))
    expect(idsOf(await post('/v1/tools/memory_list', { session: 's1' }, x))).toEqual(expect.arrayContaining([userNote, sessionNote]))
    for (const body of [{}, { session: 's1' }, { layers: ['user', 'session'], session: 's1' }]) {
      const listed = await post('/v1/tools/memory_list', body, y)
      expect(listed.status).toBe(200)
      expect(idsOf(listed)).not.toContain(userNote)
      expect(idsOf(listed)).not.toContain(sessionNote)
    }
    expect((await post('/v1/tools/memory_show', { memoryId: userNote }, y)).status).toBe(404)

    const entity = { name: 'Payroll', entityType: 'service', observations: ['x owns the payroll service'] }
    expect((await post('/v1/tools/create_entities', { entities: [entity] }, x)).status).toBe(200)
    expect((await post('/v1/tools/read_graph', {}, x)).body).toMatchObject({ entities: [entity] })
    expect((await post('/v1/tools/read_graph', {}, y)).body).toMatchObject({ entities: [] })
    expect((await post('/v1/tools/search_nodes', { query: 'payroll' }, y)).body).toMatchObject({ entities: [] })
  })

  it('an agent reads only its own recall receipts, whose query hash is salted', async () => {
    const query = 'which dashboard does x prefer'
    expect((await post('/v1/memory/recall_text', { query_text: query }, x)).status).toBe(200)
    const own = await post('/v1/tools/memory_receipts', {}, x)
    const receipts = own.body.receipts as { agent_id: string; query_sha256: string }[]
    expect(receipts.map((receipt) => receipt.agent_id)).toEqual(['x'])
    expect(receipts[0]?.query_sha256).not.toBe(createHash('sha256').update(query).digest('hex'))
    expect((await post('/v1/tools/memory_receipts', {}, y)).body).toMatchObject({ receipts: [] })
    expect((await post('/v1/tools/memory_receipts', {}, await tenantOnlyJwt())).body).toMatchObject({ receipts: [] })
    expect(await post('/v1/tools/memory_receipts', { agent_id: 'x' }, y)).toMatchObject({ status: 403, body: { details: { field: 'agent_id' } } })
  })
})

describe('the server’s lane default (issue 25, item 4)', () => {
  it('a write without lane by an agent’s credential is private to that agent; shared must be asked for', async () => {
    const unsaid = await add(x, { content: 'The billing cron runs at 02:00 UTC', layer: 'project' })
    expect((await post('/v1/tools/memory_show', { memoryId: unsaid }, x)).body).toMatchObject({ lane: 'private', owner_agent_id: 'x' })
    expect((await post('/v1/tools/memory_show', { memoryId: unsaid }, y)).status).toBe(404)
    const shared = await add(x, { content: 'The billing service is written in Go', layer: 'project', lane: 'shared' })
    expect((await post('/v1/tools/memory_show', { memoryId: shared }, y)).body).toMatchObject({ lane: 'shared' })
  })

  it('the CLI keeps its local default: a project memory is shared', async () => {
    if (workspace === undefined) throw new Error('no workspace')
    const added = parseJson<{ memoryId: string }>(
      await runMk(['memory', 'add', 'The CLI default stays shared', '--layer', 'project', '--json'], {
        cwd: workspace.root,
        env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: 'x' },
      }),
    )
    const shown = parseJson(await runMk(['memory', 'show', added.memoryId, '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }))
    expect(shown).toMatchObject({ lane: 'shared' })
    expect(shown).not.toHaveProperty('owner_agent_id')
  })
})

describe('the recall debug channel (issue 25, item 12)', () => {
  it('needs the admin role on a server with auth, outside production too, and the start-up line says so', async () => {
    const asWriter = await post('/v1/memory/recall_text', { query_text: 'billing cron', return_debug: true }, x)
    expect(asWriter).toMatchObject({ status: 403, body: { errorCode: 'FORBIDDEN', error: 'debug_forbidden', details: { reason: 'debug_forbidden' } } })
    const asAdmin = await post('/v1/memory/recall_text', { query_text: 'billing cron', return_debug: true }, admin)
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body).toHaveProperty('debug')
    expect(server?.started).toMatchObject({ auth: 'api_key_or_jwt', debug_channel: 'admin role only' })
  })
})
