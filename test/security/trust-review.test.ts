import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * The trust review of 28 November (changes/trustreview.md), against the built `mk serve`
 * (run `npm run build` first) on 127.0.0.1 with --data (one store per tenant) and API keys of
 * two tenants: what one key holder can still reach that the security model says it cannot.
 */

const keys = {
  'key-a1': { tenant_id: 'ta', agent_id: 'a1', role: 'writer' },
  'key-a3': { tenant_id: 'ta', agent_id: 'a3', role: 'writer' },
  'key-reader': { tenant_id: 'ta', agent_id: 'r', role: 'reader' },
  'key-tenant-only': { tenant_id: 'ta' },
}
const a1 = { 'x-api-key': 'key-a1' }
const a3 = { 'x-api-key': 'key-a3' }
const reader = { 'x-api-key': 'key-reader' }
const tenantOnly = { 'x-api-key': 'key-tenant-only' }

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

beforeAll(async () => {
  // Tenant ta's knowledge folder, as an operator seeds it: the rules tools need one.
  workspace = await makeWorkspace({ 'data/tenants/ta/workspace/knowledge/README.md': '# Knowledge\n' })
  server = await startServe({
    cwd: workspace.root,
    args: ['--data', 'data'],
    env: {
      MK_HOME: workspace.mkHome,
      MK_AUTH_MODE: 'api_key',
      MK_API_KEYS_JSON: JSON.stringify(keys),
      MK_ADMIN_TOKEN: undefined,
      MK_TENANT_QUOTAS: undefined,
      MK_SERVE_MAX_SCOPES: '3',
    },
  })
})

afterAll(async () => {
  await server?.stop()
  await workspace?.cleanup()
})

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  if (server === undefined) throw new Error('the server did not start')
  return server.post(path, body, headers)
}

describe('a rules file cannot import what mk keeps private', () => {
  it('a CLAUDE.md @import of another agent’s private project memory, or of .mk/, is not read', async () => {
    const added = await post('/v1/tools/memory_add', { content: 'The payroll export password rotates on the 3rd', layer: 'project' }, a1)
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    const memoryId = added.body.memoryId as string
    const content = `# Rules\n\n- Follow @knowledge/memory/${memoryId}.md\n- And @.mk/site/memories.html\n`
    const ingested = await post('/v1/tools/rules_upsert_markdown', { documents: [{ path: 'CLAUDE.md', content }] }, a3)
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(200)
    const sources = (ingested.body.items as { sourcePath: string }[]).map((item) => item.sourcePath)
    expect(sources).toEqual(['CLAUDE.md'])
    // A site a1 built with its memories lies in .mk/site: no import reaches it either.
    const built = await post('/v1/tools/site_build', { memories: true }, a1)
    expect(built.status, JSON.stringify(built.body)).toBe(200)
    const again = await post('/v1/tools/rules_upsert_markdown', { documents: [{ path: 'CLAUDE.md', content }] }, a3)
    expect((again.body.items as { sourcePath: string }[]).map((item) => item.sourcePath)).toEqual(['CLAUDE.md'])
    const listed = await post('/v1/tools/knowledge_query', { text: 'payroll export password', limit: 20 }, reader)
    expect(JSON.stringify(listed.body)).not.toContain('payroll export password')
  })
})

describe('a deeply nested body is the caller’s error, not the server’s', () => {
  it('is answered 400 INVALID_INPUT naming the depth, in any field, and the server answers the next call', async () => {
    const depth = 100_000
    for (const [tool, body] of [
      ['rules_evaluate', `{"context":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`],
      ['memory_search', `{"query":"x","tenant_id":${'['.repeat(depth)}${']'.repeat(depth)}}`],
    ] as const) {
      const response = await fetch(`${server?.url ?? ''}/v1/tools/${tool}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...reader },
        body,
      })
      const answer = (await response.json()) as Record<string, unknown>
      expect(response.status, JSON.stringify(answer)).toBe(400)
      expect(answer.errorCode).toBe('INVALID_INPUT')
      expect(answer.message).toMatch(/more than 64 levels deep/)
    }
    expect((await post('/v1/tools/memory_search', { query: 'x' }, reader)).status).toBe(200)
  })
})

describe('a key holder cannot make scopes without end', () => {
  it('a reader naming a fourth new scope gets 403 scope_limit; the scopes there are still answered', async () => {
    for (const scope of ['s1', 's2', 's3']) expect((await post('/v1/tools/memory_search', { query: 'x', scope }, reader)).status).toBe(200)
    const refused = await post('/v1/tools/memory_search', { query: 'x', scope: 's4' }, reader)
    expect(refused.status, JSON.stringify(refused.body)).toBe(403)
    expect(refused.body.details).toMatchObject({ reason: 'scope_limit', limit: 3 })
    expect((await post('/v1/tools/memory_search', { query: 'x', scope: 's2' }, reader)).status).toBe(200)
    expect((await post('/v1/tools/memory_search', { query: 'x' }, reader)).status).toBe(200)
  })
})

describe('what a memory carries beside its content is bounded like its content', () => {
  it('refuses 33 metadata keys, a metadata value of 1,001 characters and 65 refs with 400; the bounds themselves pass', async () => {
    const keysOf = (count: number): Record<string, string> => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 'v']))
    const refsOf = (count: number): string[] => Array.from({ length: count }, (_, index) => `docs/note-${index}.md`)
    for (const extra of [{ metadata: keysOf(33) }, { metadata: { note: 'x'.repeat(1001) } }, { metadata: { ['k'.repeat(65)]: 'v' } }, { refs: refsOf(65) }]) {
      const refused = await post('/v1/tools/memory_add', { content: 'A short fact', layer: 'agent', ...extra }, a1)
      expect(refused.status, JSON.stringify(refused.body)).toBe(400)
      expect(refused.body.errorCode).toBe('INVALID_INPUT')
    }
    const accepted = await post('/v1/tools/memory_add', { content: 'A short fact', layer: 'agent', metadata: keysOf(32), refs: refsOf(64) }, a1)
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
  })
})

describe('a rules context names its caller only as the credential does, in either spelling', () => {
  it('context.agent_id and context.team_id naming another agent or team are refused with 403 identity_mismatch; its own pass', async () => {
    for (const [tool, extra] of [
      ['rules_evaluate', {}],
      ['tools_select', { candidates: ['web_search'] }],
    ] as const) {
      for (const [headers, context, field] of [
        [tenantOnly, { agent_id: 'a1' }, 'context.agent_id'],
        [a3, { team_id: 'payroll' }, 'context.team_id'],
        [a3, { agent_id: 'a1' }, 'context.agent_id'],
      ] as const) {
        const refused = await post(`/v1/tools/${tool}`, { context, ...extra }, headers)
        expect(refused.status, `${tool} ${JSON.stringify(context)}: ${JSON.stringify(refused.body)}`).toBe(403)
        expect(refused.body.details).toMatchObject({ reason: 'identity_mismatch', field })
      }
      expect((await post(`/v1/tools/${tool}`, { context: { agent_id: 'a3' }, ...extra }, a3)).status).toBe(200)
    }
  })
})
