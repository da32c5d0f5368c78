import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { expectDto, type DtoSpec } from './dto-shape.js'
import { startUpstreamEmbeddings, type UpstreamEmbeddings } from './upstream-embeddings.js'

/*
 * The memory-graph API contract (seeds/002_*.txt, "API Contract (Hard)"), written from the
 * document's text alone and run against the built `mk serve` (npm run build first) on
 * 127.0.0.1: API keys of tenant `acme`, one store per tenant (--data), and an
 * OpenAI-compatible embedding API on 127.0.0.1 as the remote provider of recall_text.
 * `it.fails` marks a check mk serve does not pass yet (issue 30).
 */

const fixture = fileURLToPath(new URL('../fixtures/policy-rules', import.meta.url))
const keys = {
  'key-planner': { tenant_id: 'acme', agent_id: 'planner-1', team_id: 'platform', role: 'writer' },
  'key-admin': { tenant_id: 'acme', agent_id: 'ops', role: 'admin' },
}
const planner = { 'x-api-key': 'key-planner' }
const admin = { 'x-api-key': 'key-admin' }
const searchContext = { environment: 'production', task: { kind: 'search' } }
const taskHash = 'a'.repeat(64)

let base: string
let upstream: UpstreamEmbeddings
let server: RunningServe
const memoryIds: string[] = []

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mk-spec-002-'))
  upstream = await startUpstreamEmbeddings()
  const tenant = join(base, 'data', 'tenants', 'acme', 'workspace')
  await mkdir(tenant, { recursive: true })
  await cp(join(fixture, 'knowledge'), join(tenant, 'knowledge'), { recursive: true })
  await writeFile(
    join(tenant, '.mkrc'),
    [
      'knowledge:',
      '  sources:',
      '    - { name: project, layer: project, path: knowledge }',
      'search:',
      '  embedding:',
      '    provider: openai-compatible',
      `    baseURL: ${upstream.baseURL}`,
      '    model: words',
      `    dimensions: ${upstream.dimensions}`,
      '    timeoutMs: 5000',
      '',
    ].join('\n'),
  )
  server = await startServe({
    cwd: base,
    args: ['--data', join(base, 'data')],
    env: {
      MK_HOME: join(base, 'server-home'),
      MK_AUTH_MODE: 'api_key',
      MK_API_KEYS_JSON: JSON.stringify(keys),
      MK_ADMIN_TOKEN: undefined,
      MK_ENV: undefined,
      MK_AGENT_ID: undefined,
      MK_TENANT_QUOTAS: undefined,
    },
  })
  for (const content of [
    'The orders service stores orders in Postgres',
    'The billing cron runs at midnight and retries failed invoices',
    'Orders older than a year move to cold storage in S3',
  ]) {
    const added = await server.post('/v1/tools/memory_add', { content, layer: 'project', lane: 'shared', tags: ['orders'] }, planner)
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    memoryIds.push(added.body.memoryId as string)
  }
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await upstream?.close()
  if (base !== undefined) await rm(base, { recursive: true, force: true })
})

const post = (path: string, body: unknown, headers: Record<string, string> = planner) => server.post(path, body, headers)

/** A request refused with this status, its error naming the field (or the spec's error code). */
async function expectRefused(path: string, body: unknown, status: number, names: string, headers: Record<string, string> = planner): Promise<void> {
  const answer = await post(path, body, headers)
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  expect(JSON.stringify(answer.body)).toContain(names)
}

const seedDto: DtoSpec = {
  id: 'string',
  type: 'string',
  title: 'string',
  text_summary: 'string',
  tier: 'string',
  salience: 'number',
  confidence: 'number',
  similarity: 'number',
}
const nodeDto: DtoSpec = { id: 'string', type: 'string', title: 'string', text_summary: 'string', 'topic_state?': 'string', 'member_count?': 'number' }
const nodeMeta: DtoSpec = {
  raw_ref: 'any',
  evidence_ref: 'any',
  embedding_status: 'any',
  embedding_model: 'any',
  memory_lane: 'any',
  producer_agent_id: 'any',
  owner_agent_id: 'any',
  owner_team_id: 'any',
  created_at: 'any',
  updated_at: 'any',
  last_activated: 'any',
  salience: 'any',
  importance: 'any',
  confidence: 'any',
  commit_id: 'any',
}
const edgeDto: DtoSpec = { from_id: 'string', to_id: 'string', type: 'string', weight: 'number' }
const recallDto: DtoSpec = {
  tenant_id: 'string',
  scope: 'string',
  seeds: 'array',
  ranked: 'array',
  subgraph: 'object',
  context: 'object',
  'rules?': 'object',
  'debug?': 'object',
}
const ruleMatchDto: DtoSpec = {
  rule_node_id: 'string',
  state: 'string',
  summary: 'string',
  rule_scope: 'string',
  'target_agent_id?': 'string',
  'target_team_id?': 'string',
  if_json: 'any',
  then_json: 'object',
  exceptions_json: 'array',
  stats: 'object',
  rank: 'object',
  match_detail: 'object',
  commit_id: 'string|null',
}
const visibilityDto: DtoSpec = { agent: 'object', rule_scope: 'object', lane: 'object' }
const ruleScopeCounts: DtoSpec = {
  scanned: 'number',
  filtered_by_scope: 'number',
  filtered_by_lane: 'number',
  filtered_by_condition: 'number',
  skipped_invalid_then: 'number',
  matched_active: 'number',
  matched_shadow: 'number',
}
const laneDto: DtoSpec = { applied: 'boolean', reason: 'string', legacy_unowned_private_visible: 'boolean', legacy_unowned_private_detected: 'number' }
const appliedDto: DtoSpec = {
  policy: 'object',
  sources: 'array',
  conflicts: 'array',
  'shadow_policy?': 'object',
  'shadow_sources?': 'array',
  'shadow_conflicts?': 'array',
  conflict_explain: 'array',
  tool_explain: 'any',
  'shadow_tool_explain?': 'any',
}

function expectVisibility(summary: unknown, where: string): void {
  expectDto(summary, visibilityDto, where)
  const { agent, rule_scope, lane } = summary as Record<string, unknown>
  expectDto(agent, { id: 'string|null', team_id: 'string|null' }, `${where}.agent`)
  expectDto(rule_scope, ruleScopeCounts, `${where}.rule_scope`)
  expectDto(lane, laneDto, `${where}.lane`)
  expect(['missing_agent_context', 'enforced_agent_only', 'enforced_team_only', 'enforced_agent_team']).toContain((lane as { reason: string }).reason)
}

function expectRuleMatch(match: unknown, where: string): void {
  expectDto(match, ruleMatchDto, where)
  const { stats, rank, match_detail } = match as Record<string, unknown>
  expectDto(stats, { positive: 'number', negative: 'number' }, `${where}.stats`)
  expectDto(rank, { score: 'number', evidence_score: 'number', priority: 'number', weight: 'number', specificity: 'number' }, `${where}.rank`)
  expectDto(match_detail, { condition_paths: 'array', condition_path_count: 'number' }, `${where}.match_detail`)
}

function expectRecall(body: Record<string, unknown>, where: string, options: { meta?: boolean; slots?: boolean; preview?: boolean } = {}): void {
  expectDto(body, options.meta === undefined ? recallDto : recallDto, where)
  for (const [n, seed] of (body.seeds as unknown[]).entries()) expectDto(seed, seedDto, `${where}.seeds[${n}]`)
  for (const [n, item] of (body.ranked as unknown[]).entries())
    expectDto(item, { id: 'string', activation: 'number', score: 'number' }, `${where}.ranked[${n}]`)
  expectDto(body.subgraph, { nodes: 'array', edges: 'array' }, `${where}.subgraph`)
  const { nodes, edges } = body.subgraph as { nodes: unknown[]; edges: unknown[] }
  const nodeSpec: DtoSpec = {
    ...nodeDto,
    ...(options.meta === true ? nodeMeta : {}),
    ...(options.slots === true ? { slots: 'object' } : {}),
    ...(options.preview === true ? { slots_preview: 'object' } : {}),
  }
  for (const [n, node] of nodes.entries()) expectDto(node, nodeSpec, `${where}.subgraph.nodes[${n}]`)
  const edgeSpec: DtoSpec = { ...edgeDto, ...(options.meta === true ? { commit_id: 'any' } : {}) }
  for (const [n, edge] of edges.entries()) expectDto(edge, edgeSpec, `${where}.subgraph.edges[${n}]`)
  expectDto(body.context, { text: 'string', items: 'array', citations: 'array' }, `${where}.context`)
}

describe('tenant isolation and auth (P2.5, Phase C)', () => {
  const routes = [
    '/v1/memory/recall',
    '/v1/memory/recall_text',
    '/v1/memory/rules/evaluate',
    '/v1/memory/tools/select',
    '/v1/memory/tools/feedback',
    '/v1/memory/archive/rehydrate',
    '/v1/memory/nodes/activate',
  ]
  it('every /v1/memory/* endpoint requires X-Api-Key in api_key mode (401)', async () => {
    for (const route of routes) expect((await post(route, {}, {})).status, route).toBe(401)
  })
  it('a request tenant other than the key-bound tenant is refused (403); X-Tenant-Id is read when the body omits tenant_id', async () => {
    await expectRefused('/v1/memory/recall_text', { query_text: 'orders', tenant_id: 'other' }, 403, 'tenant')
    await expectRefused('/v1/memory/recall_text', { query_text: 'orders' }, 403, 'tenant', { ...planner, 'x-tenant-id': 'other' })
    const viaHeader = await post('/v1/memory/recall_text', { query_text: 'orders' }, { ...planner, 'x-tenant-id': 'acme' })
    expect(viaHeader.status).toBe(200)
    expect(viaHeader.body.tenant_id).toBe('acme')
  })
  it('identity mismatch in caller-provided fields returns 403 identity_mismatch', async () => {
    await expectRefused('/v1/memory/recall_text', { query_text: 'orders', consumer_agent_id: 'someone-else' }, 403, 'identity_mismatch')
    await expectRefused('/v1/memory/rules/evaluate', { context: { agent: { id: 'someone-else' } } }, 403, 'identity_mismatch')
  })
})

describe('POST /v1/memory/recall', () => {
  it('requires query_embedding (400 naming it)', async () => {
    await expectRefused('/v1/memory/recall', {}, 400, 'query_embedding')
  })
  it('refuses a query_embedding of another dimension than the server model with 400 naming the expected dimension', async () => {
    await expectRefused('/v1/memory/recall', { query_embedding: [0.1, 0.2, 0.3] }, 400, String(upstream.dimensions))
  })
  it('answers tenant_id, scope, seeds, ranked, subgraph and context, each DTO whitelisted, and never an embedding', async () => {
    const answer = await post('/v1/memory/recall', { query_embedding: await upstream.embedQuery('where are orders stored') })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectRecall(answer.body, 'recall')
    expect(answer.body).toMatchObject({ tenant_id: 'acme', scope: 'default' })
    expect((answer.body.seeds as unknown[]).length).toBeGreaterThan(0)
    expect(answer.body.debug).toBeUndefined()
    expect(answer.body.rules).toBeUndefined()
    expect(JSON.stringify(answer.body)).not.toMatch(/embedding"|"vector"/)
  })
  it('accepts every request field the spec lists', async () => {
    const answer = await post('/v1/memory/recall', {
      query_embedding: await upstream.embedQuery('orders'),
      tenant_id: 'acme',
      scope: 'default',
      consumer_agent_id: 'planner-1',
      consumer_team_id: 'platform',
      limit: 10,
      neighborhood_hops: 1,
      max_nodes: 20,
      max_edges: 30,
      ranked_limit: 2,
      min_edge_weight: 0,
      min_edge_confidence: 0,
      include_meta: false,
      include_slots: false,
      include_slots_preview: false,
      slots_preview_keys: 10,
      return_debug: false,
      include_embeddings: false,
      rules_include_shadow: false,
      rules_limit: 50,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect((answer.body.ranked as unknown[]).length).toBeLessThanOrEqual(2)
  })
  it('include_meta adds the meta fields to nodes and commit_id to edges; include_slots adds slots; include_slots_preview adds slots_preview of at most slots_preview_keys keys, sorted', async () => {
    const query_embedding = await upstream.embedQuery('orders')
    const meta = await post('/v1/memory/recall', { query_embedding, include_meta: true })
    expect(meta.status, JSON.stringify(meta.body)).toBe(200)
    expectRecall(meta.body, 'recall(include_meta)', { meta: true })
    const slots = await post('/v1/memory/recall', { query_embedding, include_slots: true })
    expectRecall(slots.body, 'recall(include_slots)', { slots: true })
    const preview = await post('/v1/memory/recall', { query_embedding, include_slots_preview: true, slots_preview_keys: 1 })
    expectRecall(preview.body, 'recall(include_slots_preview)', { preview: true })
    for (const node of (preview.body.subgraph as { nodes: { slots_preview: Record<string, unknown> }[] }).nodes) {
      const previewKeys = Object.keys(node.slots_preview)
      expect(previewKeys.length).toBeLessThanOrEqual(1)
      expect(previewKeys).toEqual([...previewKeys].sort())
    }
  })
  it('enforces the caps: limit ≤ 200, max_nodes ≤ 200, max_edges ≤ 100 (hard), ranked_limit ≤ 500, neighborhood_hops 1|2, edge filters 0..1, slots_preview_keys ≤ 50, rules_limit ≤ 200', async () => {
    const query_embedding = await upstream.embedQuery('orders')
    for (const [field, value] of [
      ['limit', 201],
      ['max_nodes', 201],
      ['max_edges', 101],
      ['ranked_limit', 501],
      ['neighborhood_hops', 3],
      ['min_edge_weight', 1.5],
      ['min_edge_confidence', -0.1],
      ['slots_preview_keys', 51],
      ['rules_limit', 201],
    ] as const) {
      await expectRefused('/v1/memory/recall', { query_embedding, [field]: value }, 400, field)
    }
  })
  it('return_debug answers debug.neighborhood_counts {nodes, edges}', async () => {
    const answer = await post('/v1/memory/recall', { query_embedding: await upstream.embedQuery('orders'), return_debug: true }, admin)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(answer.body.debug, { neighborhood_counts: 'object', 'embeddings?': 'array' }, 'debug')
    expectDto((answer.body.debug as Record<string, unknown>).neighborhood_counts, { nodes: 'number', edges: 'number' }, 'debug.neighborhood_counts')
  })
  it('debug embeddings: only with limit ≤ 20 (400 otherwise), at most 5 seeds, 16-dim previews with sha256, never in subgraph.nodes', async () => {
    const query_embedding = await upstream.embedQuery('orders')
    await expectRefused('/v1/memory/recall', { query_embedding, return_debug: true, include_embeddings: true, limit: 21 }, 400, 'limit', admin)
    await expectRefused('/v1/memory/recall', { query_embedding, return_debug: true, include_embeddings: true, limit: 200 }, 400, 'limit', admin)
    const answer = await post('/v1/memory/recall', { query_embedding, return_debug: true, include_embeddings: true, limit: 20 }, admin)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const embeddings = (answer.body.debug as { embeddings: unknown[] }).embeddings
    expect(embeddings.length).toBeGreaterThan(0)
    expect(embeddings.length).toBeLessThanOrEqual(5)
    for (const [n, item] of embeddings.entries()) {
      expectDto(item, { node_id: 'string', dim: 'number', preview: 'array', sha256: 'string' }, `debug.embeddings[${n}]`)
      expect((item as { preview: number[] }).preview.length).toBeLessThanOrEqual(16)
      expect((item as { sha256: string }).sha256).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(JSON.stringify(answer.body.subgraph)).not.toContain('preview')
  })
  it('debug embeddings need the admin (403 for a writer key)', async () => {
    await expectRefused(
      '/v1/memory/recall',
      { query_embedding: await upstream.embedQuery('orders'), return_debug: true, include_embeddings: true, limit: 5 },
      403,
      'debug',
    )
  })
  it('rules_context adds rules {scope, considered, matched, skipped_invalid_then, invalid_then_sample, applied}', async () => {
    const answer = await post('/v1/memory/recall', { query_embedding: await upstream.embedQuery('orders'), rules_context: searchContext })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(
      answer.body.rules,
      { scope: 'string', considered: 'number', matched: 'number', skipped_invalid_then: 'number', invalid_then_sample: 'array', applied: 'object' },
      'recall.rules',
    )
    expectDto((answer.body.rules as Record<string, unknown>).applied, appliedDto, 'recall.rules.applied')
  })
  it('refuses an unknown request field with 400 naming it', async () => {
    await expectRefused('/v1/memory/recall', { query_embedding: await upstream.embedQuery('orders'), colour: 'red', flavour: 1 }, 400, 'flavour')
  })
})

describe('POST /v1/memory/recall_text', () => {
  it('requires query_text (400 naming it)', async () => {
    await expectRefused('/v1/memory/recall_text', {}, 400, 'query_text')
  })
  it('answers what /recall answers plus query {text, embedding_provider}', async () => {
    const answer = await post('/v1/memory/recall_text', { query_text: 'where are orders stored' })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(answer.body, { ...recallDto, query: 'object' }, 'recall_text')
    const { query: _query, ...recallPart } = answer.body
    expectRecall(recallPart, 'recall_text')
    expectDto(answer.body.query, { text: 'string', embedding_provider: 'string' }, 'recall_text.query')
    expect(answer.body.query).toMatchObject({ text: 'where are orders stored' })
    expect((answer.body.seeds as { id: string }[]).map((seed) => seed.id)).toContain(memoryIds[0])
  })
  it('maps upstream embedding failures: 429 upstream_embedding_rate_limited, 503 upstream_embedding_unavailable (both with retry-after), 502 upstream_embedding_bad_response', async () => {
    const cases = [
      ['throttled', 429, 'upstream_embedding_rate_limited', true],
      ['unavailable', 503, 'upstream_embedding_unavailable', true],
      ['malformed', 502, 'upstream_embedding_bad_response', false],
    ] as const
    try {
      for (const [mode, status, code, retryAfter] of cases) {
        upstream.mode = mode
        const answer = await post('/v1/memory/recall_text', { query_text: `a question never asked before (${mode})` })
        expect(answer.status, JSON.stringify(answer.body)).toBe(status)
        expect(answer.body.error).toBe(code)
        if (retryAfter) expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
      }
    } finally {
      upstream.mode = 'ok'
    }
  })
})

describe('POST /v1/memory/rules/evaluate', () => {
  it('requires context (400 naming it) and caps limit at 200', async () => {
    await expectRefused('/v1/memory/rules/evaluate', {}, 400, 'context')
    await expectRefused('/v1/memory/rules/evaluate', { context: searchContext, limit: 201 }, 400, 'limit')
  })
  it('answers tenant_id, scope, counts, skipped_invalid_then as a number, agent_visibility_summary, active, shadow and applied, RuleMatchDTO whitelisted', async () => {
    const answer = await post('/v1/memory/rules/evaluate', { context: searchContext, tenant_id: 'acme', scope: 'default', include_shadow: true, limit: 50 })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(
      answer.body,
      {
        tenant_id: 'string',
        scope: 'string',
        considered: 'number',
        matched: 'number',
        skipped_invalid_then: 'number',
        agent_visibility_summary: 'object',
        active: 'array',
        shadow: 'array',
        applied: 'object',
      },
      'rules/evaluate',
    )
    expect(answer.body).toMatchObject({ tenant_id: 'acme', scope: 'default' })
    expectVisibility(answer.body.agent_visibility_summary, 'rules/evaluate.agent_visibility_summary')
    const active = answer.body.active as unknown[]
    expect(active.length).toBeGreaterThan(0)
    for (const [n, match] of [...active, ...(answer.body.shadow as unknown[])].entries()) expectRuleMatch(match, `rules/evaluate.match[${n}]`)
    expectDto(answer.body.applied, appliedDto, 'rules/evaluate.applied')
    // The shadow rules' own merged policy, never applied: the fixture's one shadow rule denies grep for searches.
    expect(answer.body.applied).toMatchObject({ shadow_policy: { tool: { deny: ['grep'] } }, shadow_sources: ['shadow-deny-grep'], shadow_conflicts: [] })
    expect((answer.body.applied as Record<string, unknown>).shadow_tool_explain).toEqual(expect.arrayContaining([expect.stringContaining('grep')]))
    expect((answer.body.applied as { policy: { tool?: { deny?: string[] } } }).policy.tool?.deny ?? []).not.toContain('grep')
  })
  it('include_shadow=false leaves shadow empty and applied without shadow_*', async () => {
    const answer = await post('/v1/memory/rules/evaluate', { context: searchContext, include_shadow: false })
    expect(answer.body.shadow).toEqual([])
    expect(Object.keys(answer.body.applied as object).filter((key) => key.startsWith('shadow_'))).toEqual([])
  })
})

describe('POST /v1/memory/tools/select', () => {
  it('requires context and candidates (1..200)', async () => {
    await expectRefused('/v1/memory/tools/select', { candidates: ['rg'] }, 400, 'context')
    await expectRefused('/v1/memory/tools/select', { context: searchContext }, 400, 'candidates')
    await expectRefused('/v1/memory/tools/select', { context: searchContext, candidates: [] }, 400, 'candidates')
    const many = Array.from({ length: 201 }, (_, n) => `tool-${n}`)
    await expectRefused('/v1/memory/tools/select', { context: searchContext, candidates: many }, 400, 'candidates')
  })
  it('answers tenant_id, scope, candidates (deduped), selection {candidates, allowed, denied, preferred, ordered, selected} and rules {...}', async () => {
    const answer = await post('/v1/memory/tools/select', {
      context: searchContext,
      candidates: ['shell', 'rg', 'grep', 'rg'],
      tenant_id: 'acme',
      scope: 'default',
      include_shadow: true,
      rules_limit: 50,
      strict: true,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(answer.body, { tenant_id: 'string', scope: 'string', candidates: 'array', selection: 'object', rules: 'object' }, 'tools/select')
    expect(answer.body.candidates).toEqual(['shell', 'rg', 'grep'])
    expectDto(
      answer.body.selection,
      { candidates: 'array', allowed: 'array', denied: 'array', preferred: 'array', ordered: 'array', selected: 'string', 'fallback?': 'string' },
      'tools/select.selection',
    )
    expect(answer.body.selection).toMatchObject({ selected: 'grep', denied: ['shell'] }) // the key's agent planner-1 prefers grep
    expectDto(
      answer.body.rules,
      {
        considered: 'number',
        matched: 'number',
        skipped_invalid_then: 'number',
        invalid_then_sample: 'array',
        agent_visibility_summary: 'object',
        applied: 'object',
        tool_conflicts_summary: 'array',
        'shadow_selection?': 'object',
        'shadow_tool_conflicts_summary?': 'array',
      },
      'tools/select.rules',
    )
    const rules = answer.body.rules as Record<string, unknown>
    expectVisibility(rules.agent_visibility_summary, 'tools/select.rules.agent_visibility_summary')
    expectDto(rules.applied, appliedDto, 'tools/select.rules.applied')
    expect(rules.shadow_tool_conflicts_summary).toEqual([])
    expect(rules.applied).toMatchObject({ shadow_sources: ['shadow-deny-grep'] })
    const withoutShadow = await post('/v1/memory/tools/select', { context: searchContext, candidates: ['rg', 'grep'] })
    expect(withoutShadow.body.rules).not.toHaveProperty('shadow_tool_conflicts_summary')
  })
  it('strict (default): allow/deny removing every candidate is 400 no_tools_allowed; strict=false falls back with selection.fallback', async () => {
    const refused = await post('/v1/memory/tools/select', { context: searchContext, candidates: ['shell', 'fd'] })
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body.error).toBe('no_tools_allowed')
    const fallback = await post('/v1/memory/tools/select', { context: searchContext, candidates: ['shell', 'fd'], strict: false })
    expect(fallback.status, JSON.stringify(fallback.body)).toBe(200)
    expect((fallback.body.selection as Record<string, unknown>).fallback).toEqual(expect.any(String))
  })
})

describe('POST /v1/memory/tools/feedback', () => {
  const feedback = { context: searchContext, candidates: ['shell', 'rg', 'grep'], selected_tool: 'rg', outcome: 'positive', input_text: 'find the timeout' }
  it('requires context, candidates, selected_tool, outcome and input_text or input_sha256', async () => {
    for (const field of ['context', 'candidates', 'selected_tool', 'outcome'] as const) {
      const { [field]: _left, ...rest } = feedback
      await expectRefused('/v1/memory/tools/feedback', rest, 400, field)
    }
    const { input_text: _text, ...noInput } = feedback
    await expectRefused('/v1/memory/tools/feedback', noInput, 400, 'input_')
    await expectRefused('/v1/memory/tools/feedback', { ...feedback, outcome: 'great' }, 400, 'outcome')
    await expectRefused('/v1/memory/tools/feedback', { ...feedback, target: 'everything' }, 400, 'target')
  })
  it('answers ok, tenant_id, scope, updated_rules, rule_node_ids, commit_id and commit_hash', async () => {
    const answer = await post('/v1/memory/tools/feedback', {
      ...feedback,
      tenant_id: 'acme',
      scope: 'default',
      actor: 'planner-1',
      run_id: 'run-1',
      target: 'tool',
      include_shadow: false,
      rules_limit: 50,
      note: 'worked',
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(
      answer.body,
      {
        ok: 'boolean',
        tenant_id: 'string',
        scope: 'string',
        updated_rules: 'number',
        rule_node_ids: 'array',
        commit_id: 'string|null',
        commit_hash: 'string|null',
      },
      'tools/feedback',
    )
    expect(answer.body.ok).toBe(true)
    expect(answer.body.updated_rules).toBeGreaterThan(0)
    expect(answer.body.commit_id).toEqual(expect.any(String))
    const none = await post('/v1/memory/tools/feedback', {
      ...feedback,
      selected_tool: 'grep',
      candidates: ['grep'],
      input_sha256: taskHash,
      input_text: undefined,
      context: { environment: 'dev' },
    })
    expect(none.status, JSON.stringify(none.body)).toBe(200)
    expect(none.body).toMatchObject({ ok: true, updated_rules: 0, rule_node_ids: [], commit_id: null, commit_hash: null })
  })
})

describe('POST /v1/memory/nodes/activate', () => {
  it('takes node_ids (1..200) or client_ids, requires input_text or input_sha256, outcome positive|negative|neutral', async () => {
    await expectRefused('/v1/memory/nodes/activate', { input_text: 'task' }, 400, 'node_ids')
    await expectRefused('/v1/memory/nodes/activate', { node_ids: memoryIds.slice(0, 1) }, 400, 'input_')
    await expectRefused('/v1/memory/nodes/activate', { ids: memoryIds.slice(0, 1), input_text: 'task' }, 400, 'ids')
    const many = Array.from({ length: 201 }, (_, n) => `mem_${n}`)
    await expectRefused('/v1/memory/nodes/activate', { node_ids: many, input_text: 'task' }, 400, 'node_ids')
    await expectRefused('/v1/memory/nodes/activate', { node_ids: memoryIds.slice(0, 1), input_text: 'task', outcome: 'great' }, 400, 'outcome')
  })
  it('answers tenant_id, scope, commit_id, commit_hash and activated counters with ids', async () => {
    const answer = await post('/v1/memory/nodes/activate', {
      node_ids: [memoryIds[0], 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3'],
      client_ids: ['client-1'],
      tenant_id: 'acme',
      scope: 'default',
      actor: 'planner-1',
      run_id: 'run-1',
      outcome: 'positive',
      activate: true,
      reason: 'it answered',
      input_sha256: taskHash,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(
      answer.body,
      { tenant_id: 'string', scope: 'string', commit_id: 'string|null', commit_hash: 'string|null', activated: 'object' },
      'nodes/activate',
    )
    expectDto(
      answer.body.activated,
      { requested: 'number', resolved: 'number', found: 'number', updated: 'number', missing: 'number', node_ids: 'array', missing_ids: 'array' },
      'nodes/activate.activated',
    )
    expect(answer.body.activated).toMatchObject({ requested: 3, found: 1, updated: 1, missing: 2, node_ids: [memoryIds[0]] })
  })
})

describe('POST /v1/memory/archive/rehydrate', () => {
  it('takes node_ids or client_ids, requires input_text or input_sha256, target_tier warm|hot', async () => {
    await expectRefused('/v1/memory/archive/rehydrate', { input_text: 'task' }, 400, 'node_ids')
    await expectRefused('/v1/memory/archive/rehydrate', { node_ids: memoryIds.slice(0, 1) }, 400, 'input_')
    await expectRefused('/v1/memory/archive/rehydrate', { node_ids: memoryIds.slice(0, 1), input_text: 'task', target_tier: 'cold' }, 400, 'target_tier')
  })
  it('answers tenant_id, scope, target_tier, commit_id, commit_hash and rehydrated counters with ids', async () => {
    const answer = await post('/v1/memory/archive/rehydrate', {
      node_ids: memoryIds.slice(0, 2),
      tenant_id: 'acme',
      scope: 'default',
      actor: 'planner-1',
      target_tier: 'warm',
      reason: 'needed again',
      input_text: 'task',
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectDto(
      answer.body,
      { tenant_id: 'string', scope: 'string', target_tier: 'string', commit_id: 'string|null', commit_hash: 'string|null', rehydrated: 'object' },
      'archive/rehydrate',
    )
    expectDto(
      answer.body.rehydrated,
      {
        requested: 'number',
        resolved: 'number',
        moved: 'number',
        noop: 'number',
        missing: 'number',
        moved_ids: 'array',
        noop_ids: 'array',
        missing_ids: 'array',
      },
      'archive/rehydrate.rehydrated',
    )
    expect(answer.body).toMatchObject({ target_tier: 'warm', commit_id: null, rehydrated: { requested: 2, moved: 0, noop: 2 } })
  })
})

describe('scope: (tenant_id, scope) is the isolation key', () => {
  it('a memory written in one scope is recalled there and in no other; scope is echoed, default "default"', async () => {
    const added = await post('/v1/tools/memory_add', {
      content: 'Scope blue keeps its secrets in vault path blue/ops',
      layer: 'project',
      lane: 'shared',
      scope: 'blue',
    })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    const id = added.body.memoryId as string
    const inBlue = await post('/v1/memory/recall_text', { query_text: 'vault path blue ops secrets', scope: 'blue' })
    expect(inBlue.status, JSON.stringify(inBlue.body)).toBe(200)
    expect(inBlue.body.scope).toBe('blue')
    expect(JSON.stringify(inBlue.body)).toContain(id)
    for (const scope of [undefined, 'green']) {
      const elsewhere = await post('/v1/memory/recall_text', { query_text: 'vault path blue ops secrets', ...(scope === undefined ? {} : { scope }) })
      expect(elsewhere.status).toBe(200)
      expect(elsewhere.body.scope).toBe(scope ?? 'default')
      expect(JSON.stringify(elsewhere.body)).not.toContain(id)
    }
    const activated = await post('/v1/memory/nodes/activate', { node_ids: [id], input_text: 'task' })
    expect(activated.body.activated).toMatchObject({ found: 0, missing: 1 })
  })
  it('refuses a scope that is not a safe name (400)', async () => {
    await expectRefused('/v1/memory/recall_text', { query_text: 'orders', scope: '../acme' }, 400, 'scope')
  })
})
