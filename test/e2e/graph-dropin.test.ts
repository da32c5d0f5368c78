import { createRequire } from 'node:module'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkBin, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/** The same calls a client configured for the reference memory server would make. */
const calls: [string, Record<string, unknown>][] = [
  [
    'create_entities',
    {
      entities: [
        { name: 'Alice', entityType: 'person', observations: ['Owns the billing service', 'Prefers Go'] },
        { name: 'billing', entityType: 'service', observations: ['Runs nightly invoices'] },
        { name: 'Kafka', entityType: 'system', observations: [] },
      ],
    },
  ],
  [
    'create_entities',
    {
      entities: [
        { name: 'Alice', entityType: 'robot', observations: ['ignored: Alice exists'] },
        { name: 'Bob', entityType: 'person', observations: ['On call this week'] },
      ],
    },
  ],
  [
    'create_relations',
    {
      relations: [
        { from: 'Alice', to: 'billing', relationType: 'owns' },
        { from: 'billing', to: 'Kafka', relationType: 'publishes to' },
        { from: 'Bob', to: 'billing', relationType: 'supports' },
      ],
    },
  ],
  ['create_relations', { relations: [{ from: 'Alice', to: 'billing', relationType: 'owns' }] }],
  ['add_observations', { observations: [{ entityName: 'Alice', contents: ['Prefers Go', 'Reviews every billing release\nand signs it off'] }] }],
  ['search_nodes', { query: 'BILLING' }],
  ['open_nodes', { names: ['Kafka', 'Nobody'] }],
  [
    'delete_observations',
    {
      deletions: [
        { entityName: 'Alice', observations: ['Prefers Go'] },
        { entityName: 'Nobody', observations: ['x'] },
      ],
    },
  ],
  ['delete_relations', { relations: [{ from: 'Bob', to: 'billing', relationType: 'supports' }] }],
  ['delete_entities', { entityNames: ['Kafka'] }],
  ['read_graph', {}],
]

async function connect(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'mk-graph-test', version: '1.0.0' })
  await client.connect(new StdioClientTransport({ command, args, cwd, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' }))
  return client
}

let ws: TempWorkspace
let referenceDir: string
let reference: Client
let mk: Client
beforeAll(async () => {
  ws = await makeWorkspace()
  referenceDir = await mkdtemp(join(tmpdir(), 'mk-reference-memory-'))
  const referenceServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')
  reference = await connect(process.execPath, [referenceServer], referenceDir, { MEMORY_FILE_PATH: join(referenceDir, 'memory.jsonl') })
  mk = await connect(process.execPath, [mkBin, 'mcp', '--profile', 'main'], ws.root, { MK_HOME: ws.mkHome, NO_COLOR: '1' })
}, 60_000)
afterAll(async () => {
  await reference.close()
  await mk.close()
  await rm(referenceDir, { recursive: true, force: true })
  await ws.cleanup()
})

describe('the reference MCP memory server drop-in', () => {
  it('answers the same call sequence with the same results as @modelcontextprotocol/server-memory', { timeout: 120_000 }, async () => {
    for (const [name, input] of calls) {
      const expected = await reference.callTool({ name, arguments: input })
      const actual = await mk.callTool({ name, arguments: input })
      expect(actual.isError ?? false, `${name}: ${JSON.stringify(actual.content)}`).toBe(expected.isError ?? false)
      expect(actual.structuredContent, name).toEqual(expected.structuredContent)
    }
  })

  it('fails like the reference on an unknown entity', { timeout: 60_000 }, async () => {
    const input = { observations: [{ entityName: 'Nobody', contents: ['x'] }] }
    expect((await reference.callTool({ name: 'add_observations', arguments: input })).isError).toBe(true)
    const actual = await mk.callTool({ name: 'add_observations', arguments: input })
    expect(actual.isError).toBe(true)
    expect(JSON.stringify(actual.content)).toContain('Entity with name Nobody not found')
  })

  it('keeps each entity as an mk memory that search finds', { timeout: 60_000 }, async () => {
    const found = parseJson<{ results: { content: string }[] }>(
      await runMk(['memory', 'search', 'signs it off', '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } }),
    )
    expect(found.results[0]?.content).toBe('Alice (person)\n- Owns the billing service\n- Reviews every billing release\n  and signs it off')
  })
})
