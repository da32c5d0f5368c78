import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { tools } from '../../src/tools/registry.js'
import { connectMcp, type McpConnection } from '../contract/paths.js'
import { mkBin, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Spawns the built `mk mcp` (run `npm run build` first) and talks to it with the SDK's client. */

const adr = `---
type: adr
title: Use PostgreSQL for relational data
status: accepted
---
# Use PostgreSQL for relational data
`

let workspace: TempWorkspace
let connection: McpConnection | undefined

afterEach(async () => {
  await connection?.close()
  connection = undefined
  await workspace?.cleanup()
})

const readOnlyTools = tools.filter((tool) => tool.tier === 'read_only')
const writingTools = tools.filter((tool) => tool.tier !== 'read_only')

describe('mk mcp', () => {
  it('lists every registered tool with its schemas and tier annotations, and answers with structured content and display text', async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgresql.md': adr })
    connection = await connectMcp(workspace)
    const listed = (await connection.client.listTools()).tools
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name))
    for (const tool of listed) {
      const definition = tools.find((candidate) => candidate.name === tool.name)
      expect(tool.description).toBe(definition?.description)
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
      expect(tool.outputSchema).toMatchObject({ type: 'object' })
      expect(tool.annotations?.readOnlyHint).toBe(definition?.tier === 'read_only')
      expect(tool.annotations?.idempotentHint).toBe(definition?.idempotent)
    }
    const result = await connection.call('knowledge_list', { status: 'accepted' })
    expect(result).toMatchObject({ ok: true, output: { totalCount: 1, items: [{ id: 'adr-0001-use-postgresql', path: 'knowledge/adr/adr-0001-use-postgresql.md' }] } })
    expect(result.texts[0]).toContain('adr-0001-use-postgresql')
    expect(result.texts[0]).toContain('1 item')
  })

  it('answers knowledge tools from every file that loads and names the one that does not (issue 12)', async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgresql.md': adr, 'knowledge/adr/adr-0002-bad.md': '---\ntitle: Bad\ntags: [a\n---\nx\n' })
    connection = await connectMcp(workspace)
    const listed = await connection.call('knowledge_list', {})
    expect(listed).toMatchObject({ ok: true, output: { totalCount: 1, problems: [{ file: 'knowledge/adr/adr-0002-bad.md', code: 'malformed-frontmatter', severity: 'error' }] } })
    const shown = await connection.call('knowledge_show', { id: 'adr-0001-use-postgresql' })
    expect(shown).toMatchObject({ ok: true, output: { status: 'accepted', problems: [{ file: 'knowledge/adr/adr-0002-bad.md' }] } })
  })

  it('offers a worker only read-only tools', async () => {
    workspace = await makeWorkspace()
    connection = await connectMcp(workspace, ['--profile', 'worker'])
    const listed = (await connection.client.listTools()).tools
    expect(listed.map((tool) => tool.name)).toEqual(readOnlyTools.map((tool) => tool.name))
    expect(listed.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)
    for (const tool of writingTools) {
      const refused = await connection.call(tool.name, tool.examples[0]?.input as Record<string, unknown>)
      expect(refused).toMatchObject({ ok: false, error: { errorCode: 'NOT_FOUND' } })
    }
  })

  it('refuses every writing tool with FORBIDDEN under --read-only, and still answers reads', async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgresql.md': adr })
    connection = await connectMcp(workspace, ['--read-only'])
    for (const tool of writingTools) {
      const refused = await connection.call(tool.name, tool.examples[0]?.input as Record<string, unknown>)
      expect(refused, tool.name).toMatchObject({ ok: false, error: { errorCode: 'FORBIDDEN' } })
    }
    expect(await connection.call('knowledge_list', {})).toMatchObject({ ok: true, output: { totalCount: 1 } })
  })

  it('exits when the client closes its stdin', async () => {
    workspace = await makeWorkspace()
    const child = spawn(process.execPath, [mkBin, 'mcp'], { cwd: workspace.root, env: { ...process.env, MK_HOME: workspace.mkHome }, stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`)
    child.stdin.end()
    expect(await exited).toBe(0)
  })

  it('rejects an unknown profile with one line and exit 2', async () => {
    workspace = await makeWorkspace()
    const run = await runMk(['mcp', '--profile', 'admin'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(run.exitCode).toBe(2)
    expect(run.stderr.trim().split('\n')[0]).toMatch(/^Error \[INVALID_INPUT\] .*admin/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })
})

const blockingAdr = `---
type: adr
title: Use PostgreSQL for relational data
status: accepted
severity: block
constraints:
  - id: no-mysql
    operator: must_not_use
    target: dependency
    pattern: "^(mysql|mysql2|mariadb)$"
    message: MySQL is not allowed for new services; use PostgreSQL.
---
# Use PostgreSQL for relational data
`

interface SearchOutput {
  results: { content: string; scores: { text?: number; vector?: number } }[]
}

describe('an agent working through mk mcp', () => {
  it('stores a memory, finds it by meaning, sees memories other processes add, and checks a proposed dependency', { timeout: 180_000 }, async () => {
    workspace = await makeWorkspace({
      'knowledge/adr/adr-0001-use-postgresql.md': blockingAdr,
      'package.json': '{ "name": "orders-service", "dependencies": { "pg": "^8.11.0" } }\n',
    })
    connection = await connectMcp(workspace)
    const names = (await connection.client.listTools()).tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['memory_add', 'memory_search', 'knowledge_check']))

    for (const content of [
      'Alice prefers tabs over spaces in every repository',
      'Deploys go out after the Monday standup',
      'The staging database refuses writes on Fridays',
      'The office coffee machine is broken',
    ]) {
      expect(await connection.call('memory_add', { content })).toMatchObject({ ok: true, output: { success: true, deduplicated: false } })
    }

    // No word of the query is in the memory: only its meaning can match.
    const byMeaning = await connection.call('memory_search', { query: 'which weekday is the test DB locked', limit: 3 })
    expect(byMeaning.ok).toBe(true)
    const {
      results: [best],
    } = (byMeaning.ok ? byMeaning.output : { results: [] }) as SearchOutput
    expect(best).toMatchObject({ content: 'The staging database refuses writes on Fridays' })
    expect(best?.scores.text ?? 0).toBe(0)
    expect(best?.scores.vector).toBeGreaterThan(0)

    // Another process writes a memory while the server runs; the server sees it before it answers.
    const added = await runMk(['memory', 'add', 'The CI runners have two cores each', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(added.exitCode).toBe(0)
    const fresh = await connection.call('memory_search', { query: 'CI runners cores', limit: 1 })
    expect(fresh).toMatchObject({ ok: true, output: { results: [{ content: 'The CI runners have two cores each' }] } })

    const checked = await connection.call('knowledge_check', { dependencies: [{ name: 'mysql2', version: '^3.9.0' }] })
    expect(checked).toMatchObject({
      ok: true,
      output: {
        passed: false,
        violations: [{ knowledgeItemId: 'adr-0001-use-postgresql', constraintId: 'no-mysql', severity: 'block', subject: 'mysql2' }],
      },
    })
    expect(checked.texts[0]).toContain('no-mysql')
  })

  it('gives a worker no tool that stores, deletes or syncs', async () => {
    workspace = await makeWorkspace()
    connection = await connectMcp(workspace, ['--profile', 'worker'])
    const names = (await connection.client.listTools()).tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['memory_search', 'knowledge_check']))
    expect(names.filter((name) => /^(memory_(add|delete|restore)|sync_now|index_(update|rebuild))$/.test(name))).toEqual([])
    expect(await connection.call('memory_add', { content: 'a worker tries to write' })).toMatchObject({ ok: false, error: { errorCode: 'NOT_FOUND' } })
  })
})

describe('mk mcp --print-config', () => {
  it('prints snippets for common clients that start this server with the same profile', async () => {
    workspace = await makeWorkspace()
    const run = await runMk(['mcp', '--print-config', '--profile', 'worker'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(run.exitCode).toBe(0)
    for (const client of ['Claude Code', 'Claude Desktop', 'Cursor', 'VS Code', 'Codex', 'Gemini CLI']) expect(run.stdout).toContain(client)
    expect(run.stdout).toContain('claude mcp add --scope project mk -- mk mcp --profile worker')
  })

  it('prints parseable JSON snippets with --json, the user-wide ones pinned to the workspace with --cwd', async () => {
    workspace = await makeWorkspace()
    const run = await runMk(['mcp', '--print-config', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const snippets = parseJson<{ client: string; language: string; text: string }[]>(run)
    const desktop = snippets.find((snippet) => snippet.client === 'Claude Desktop')
    expect(JSON.parse(desktop?.text ?? '{}')).toEqual({ mcpServers: { mk: { command: 'mk', args: ['mcp', '--cwd', workspace.root] } } })
    for (const snippet of snippets.filter((candidate) => candidate.language === 'json')) expect(() => JSON.parse(snippet.text) as unknown).not.toThrow()
  })
})
