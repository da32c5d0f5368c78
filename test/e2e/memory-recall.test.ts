import { createHash, createHmac } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface Recalled {
  seeds: { id: string; similarity: number }[]
  ranked: { id: string; score: number }[]
  subgraph: { nodes: { id: string; type: string }[]; edges: { from_id: string; to_id: string; type: string }[] }
  context: { text: string; items: string[]; citations: { n: number; id: string; type: string; source: string }[]; tokens: number }
}

const knowledge = {
  'knowledge/adr/adr-0001-use-mysql.md':
    '---\nid: adr-0001-use-mysql\ntitle: Use MySQL for orders\ntype: adr\nstatus: superseded\nsuperseded_by: [adr-0002-use-postgresql]\n---\n# Use MySQL for orders\n\nOrders are stored in MySQL.\n',
  'knowledge/adr/adr-0002-use-postgresql.md':
    '---\nid: adr-0002-use-postgresql\ntitle: Use PostgreSQL for orders\ntype: adr\nstatus: accepted\nsupersedes: [adr-0001-use-mysql]\nsummary: Orders move to PostgreSQL 15.\n---\n# Use PostgreSQL for orders\n\nOrders are stored in PostgreSQL.\n',
  'src/orders/export.ts': 'export {}\n',
}

let ws: TempWorkspace
const mk = (args: string[]) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
const ids: Record<string, string> = {}

beforeAll(async () => {
  ws = await makeWorkspace(knowledge)
  const add = async (name: string, args: string[]) => {
    const run = await mk(['memory', 'add', '--layer', 'project', ...args, '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    ids[name] = parseJson<{ memoryId: string }>(run).memoryId
  }
  await add('orders', ['The orders table lives in the main relational database', '--ref', 'adr-0001-use-mysql', '--tag', 'orders'])
  await add('exports', ['Order exports run nightly from the export job', '--ref', 'src/orders/export.ts', '--tag', 'orders'])
  await add('cafeteria', ['The cafeteria opens at eight'])
}, 60_000)
afterAll(async () => ws.cleanup())

describe('mk memory recall', () => {
  it('returns the seeds and a subgraph whose every edge joins two of its nodes, following refs, supersession and tags', { timeout: 60_000 }, async () => {
    const recalled = parseJson<Recalled>(await mk(['memory', 'recall', 'where does the orders table live', '--json']))
    expect(recalled.seeds[0]?.id).toBe(ids.orders)
    const nodeIds = new Set(recalled.subgraph.nodes.map((node) => node.id))
    for (const edge of recalled.subgraph.edges) {
      expect(nodeIds.has(edge.from_id), JSON.stringify(edge)).toBe(true)
      expect(nodeIds.has(edge.to_id), JSON.stringify(edge)).toBe(true)
    }
    const edges = recalled.subgraph.edges.map((edge) => `${edge.from_id} ${edge.type} ${edge.to_id}`)
    expect(edges).toEqual(
      expect.arrayContaining([
        `${ids.orders} refs adr-0001-use-mysql`,
        'adr-0002-use-postgresql supersedes adr-0001-use-mysql',
        `${ids.orders} shares_tag ${ids.exports}`,
        `${ids.exports} refs_file src/orders/export.ts`,
      ]),
    )
    expect(recalled.ranked[0]?.id).toBe(ids.orders)
    expect(JSON.stringify(recalled)).not.toMatch(/embedding|vector/)
  })

  it('packs a cited context within the budget, marking stale memories and replacing superseded knowledge', { timeout: 60_000 }, async () => {
    for (const budget of [60, 1200]) {
      const recalled = parseJson<Recalled>(await mk(['memory', 'recall', 'where does the orders table live', '--budget', String(budget), '--json']))
      const { text, citations } = recalled.context
      expect(countTokens(text)).toBeLessThanOrEqual(budget)
      const bullets = text.split('\n').filter((line) => line.startsWith('- '))
      expect(bullets).toHaveLength(citations.length)
      bullets.forEach((line, position) => expect(line).toMatch(new RegExp(`\\[${position + 1}: `)))
    }
    const full = parseJson<Recalled>(await mk(['memory', 'recall', 'where does the orders table live', '--json'])).context.text
    expect(full).toMatch(/The orders table lives in the main relational database \(stale: refers to adr-0001-use-mysql, which is superseded\)/)
    expect(full).toContain('- Use PostgreSQL for orders (accepted; replaces adr-0001-use-mysql, which it superseded): Orders move to PostgreSQL 15.')
    expect(full).not.toContain('Use MySQL for orders (')
    expect(full).not.toContain('cafeteria')
  })

  it('keeps a receipt of what each recall returned, and to whom, when .mkrc asks for it', { timeout: 60_000 }, async () => {
    const before = parseJson<{ receipts: unknown[]; enabled: boolean }>(await mk(['memory', 'receipts', '--json']))
    expect(before).toEqual({ receipts: [], enabled: false })
    await ws.write('.mkrc', 'memory:\n  receipts: true\n')
    const query = 'where does the orders table live'
    const recalled = await runMk(['memory', 'recall', query, '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: 'a7' } })
    const items = parseJson<Recalled>(recalled).context.items
    const receipts = parseJson<{ receipts: { agent_id: string; query_sha256: string; ids: string[]; scores: number[] }[] }>(
      await mk(['memory', 'receipts', '--agent', 'a7', '--since', '2020-01-01', '--json']),
    ).receipts
    // The query is hashed with the workspace's salt (kept in .mk, never committed): a guessed query cannot be confirmed without it.
    const salt = await readFile(join(ws.root, '.mk', 'receipts-salt'))
    expect(salt).toHaveLength(32)
    expect(receipts).toEqual([
      { at: expect.any(String), agent_id: 'a7', query_sha256: createHmac('sha256', salt).update(query).digest('hex'), ids: items, scores: expect.any(Array) },
    ])
    expect(receipts[0]?.query_sha256).not.toBe(createHash('sha256').update(query).digest('hex'))
    expect(await readFile(join(ws.root, 'knowledge', 'memory', '.receipts.jsonl'), 'utf8')).toContain('"agent_id":"a7"')
    await rm(join(ws.root, '.mkrc'))
  })

  it('opens the debug channel only to the admin: digests of at most 5 seed vectors, never a whole one', { timeout: 60_000 }, async () => {
    const local = parseJson<{ debug: { seed_count: number; embeddings: { dimensions: number; head: number[]; sha256: string }[] } }>(
      await mk(['memory', 'recall', 'orders table', '--debug', '--embeddings', '--json']),
    )
    expect(local.debug.seed_count).toBeGreaterThan(0)
    expect(local.debug.embeddings.length).toBeLessThanOrEqual(5)
    expect(local.debug.embeddings[0]).toMatchObject({ dimensions: 512, head: expect.any(Array), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(local.debug.embeddings[0]?.head).toHaveLength(16)
    const production = await runMk(['memory', 'recall', 'orders table', '--debug', '--json'], {
      cwd: ws.root,
      env: { MK_HOME: ws.mkHome, MK_ENV: 'production' },
    })
    expect(parseJson(production)).toMatchObject({ errorCode: 'FORBIDDEN' })
    const tokenEnv = { MK_HOME: ws.mkHome, MK_ENV: 'production', MK_ADMIN_TOKEN: 's3cret-admin' }
    expect((await runMk(['memory', 'recall', 'orders table', '--debug', '--json'], { cwd: ws.root, env: tokenEnv })).exitCode).toBe(0)
    const wrong = await runMk(['tools', 'call', 'memory_recall', '--input', '{"query":"orders","return_debug":true,"admin_token":"guess"}', '--json'], {
      cwd: ws.root,
      env: tokenEnv,
    })
    expect(parseJson(wrong)).toMatchObject({ errorCode: 'FORBIDDEN' })
  })

  it('stays within one hop when asked, and rejects bad input with exit 2', { timeout: 60_000 }, async () => {
    const near = parseJson<Recalled>(await mk(['memory', 'recall', 'where does the orders table live', '--hops', '1', '--json']))
    expect(near.subgraph.edges.map((edge) => edge.type)).not.toContain('supersedes')
    expectCleanError(await mk(['memory', 'recall', ' ', '--json']))
    const hops = await mk(['memory', 'recall', 'x', '--hops', '3', '--json'])
    expectCleanError(hops)
    expect(parseJson(hops)).toMatchObject({ message: expect.stringContaining('neighborhood_hops: expected <= 2') })
    expectCleanError(await mk(['memory', 'recall', 'x', '--max-edges', '101', '--json']))
  })
})
