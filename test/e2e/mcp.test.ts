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
    expect(result).toMatchObject({
      ok: true,
      output: { totalCount: 1, items: [{ id: 'adr-0001-use-postgresql', path: 'knowledge/adr/adr-0001-use-postgresql.md' }] },
    })
    expect(result.texts[0]).toContain('adr-0001-use-postgresql')
    expect(result.texts[0]).toContain('1 item')
  })

  it('answers knowledge tools from every file that loads and names the one that does not (issue 12)', async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgresql.md': adr, 'knowledge/adr/adr-0002-bad.md': '---\ntitle: Bad\ntags: [a\n---\nx\n' })
    connection = await connectMcp(workspace)
    const listed = await connection.call('knowledge_list', {})
    expect(listed).toMatchObject({
      ok: true,
      output: { totalCount: 1, problems: [{ file: 'knowledge/adr/adr-0002-bad.md', code: 'malformed-frontmatter', severity: 'error' }] },
    })
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
    const child = spawn(process.execPath, [mkBin, 'mcp'], {
      cwd: workspace.root,
      env: { ...process.env, MK_HOME: workspace.mkHome },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
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

/** `mk mcp` as a raw child process: write any bytes, read its answers by id. */
function rawServer(
  root: string,
  mkHome: string,
): { send(text: string): void; answer(id: number | string | null): Promise<Record<string, unknown>>; end(): Promise<number | null> } {
  const child = spawn(process.execPath, [mkBin, 'mcp'], { cwd: root, env: { ...process.env, MK_HOME: mkHome }, stdio: ['pipe', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const answers: Record<string, unknown>[] = []
  const waiting: (() => void)[] = []
  let buffered = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) answers.push(JSON.parse(line) as Record<string, unknown>)
    for (const wake of waiting.splice(0)) wake()
  })
  return {
    send: (text) => void child.stdin.write(text),
    async answer(id) {
      for (;;) {
        const index = answers.findIndex((message) => message.id === id)
        if (index !== -1) return answers.splice(index, 1)[0] ?? {}
        if (child.exitCode !== null) throw new Error(`mk mcp exited (${child.exitCode}) before answering id ${String(id)}`)
        await new Promise<void>((resolve) => {
          waiting.push(resolve)
          child.once('exit', () => resolve())
        })
      }
    },
    end() {
      child.stdin.end()
      return exited
    },
  }
}

const elevenMegabytes = 'x'.repeat(11 * 1024 * 1024)

describe('mk mcp given lines that are not messages it can take', () => {
  it('answers a line over 10 MB, non-JSON and non-JSON-RPC lines with JSON-RPC errors, and keeps serving (issue 11.9)', { timeout: 60_000 }, async () => {
    workspace = await makeWorkspace()
    const server = rawServer(workspace.root, workspace.mkHome)
    const ping = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`

    server.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory_add","arguments":{"content":"${elevenMegabytes}"}}}\n`)
    const tooLong = await server.answer(7)
    expect(tooLong).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } })
    expect((tooLong.error as { message: string }).message).toMatch(/over this server's limit of 10485760 bytes/)
    server.send(ping(8))
    expect(await server.answer(8)).toEqual({ jsonrpc: '2.0', id: 8, result: {} })

    // An id written after the payload cannot be read without parsing 11 MB: the answer has id null.
    server.send(`{"params":"${elevenMegabytes}","jsonrpc":"2.0","id":9,"method":"ping"}\n`)
    expect(await server.answer(null)).toMatchObject({ id: null, error: { code: -32600 } })

    server.send('this is not json\n')
    expect(await server.answer(null)).toMatchObject({ id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) as string } })
    server.send('{"id":10,"hello":"world"}\n')
    expect(await server.answer(10)).toMatchObject({ id: 10, error: { code: -32600 } })

    server.send(ping(11))
    expect(await server.answer(11)).toEqual({ jsonrpc: '2.0', id: 11, result: {} })
    expect(await server.end()).toBe(0)
  })

  it('gives the SDK client an error for a call over 10 MB, and the next call works', { timeout: 60_000 }, async () => {
    workspace = await makeWorkspace()
    connection = await connectMcp(workspace)
    await expect(connection.client.callTool({ name: 'memory_add', arguments: { content: elevenMegabytes } })).rejects.toMatchObject({ code: -32600 })
    expect(await connection.call('memory_list', {})).toMatchObject({ ok: true })
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

    // No word of the query is in the memory: only its meaning can match, which alone stays under the default threshold (ADR 0031).
    const byMeaning = await connection.call('memory_search', { query: 'which weekday is the test DB locked', limit: 3, threshold: 0 })
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
    // Issue 12: by the package name, so the snippet works whether or not mk is installed globally.
    expect(run.stdout).toContain(`claude mcp add --scope project --env MK_HOME=${workspace.mkHome} mk -- npx -y mk-knowledge mcp --profile worker`)
  })

  it('prints parseable JSON snippets with --json, the user-wide ones pinned to the workspace with --cwd', async () => {
    workspace = await makeWorkspace()
    const run = await runMk(['mcp', '--print-config', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    const snippets = parseJson<{ client: string; language: string; text: string }[]>(run)
    const desktop = snippets.find((snippet) => snippet.client === 'Claude Desktop')
    expect(JSON.parse(desktop?.text ?? '{}')).toEqual({
      mcpServers: { mk: { command: 'npx', args: ['-y', 'mk-knowledge', 'mcp', '--cwd', workspace.root], env: { MK_HOME: workspace.mkHome } } },
    })
    for (const snippet of snippets.filter((candidate) => candidate.language === 'json')) expect(() => JSON.parse(snippet.text) as unknown).not.toThrow()
  })

  it('passes MK_HOME to the server in every snippet when it is set, and no env when it is not (issue 11)', async () => {
    workspace = await makeWorkspace()
    const withHome = parseJson<{ client: string; language: string; text: string }[]>(
      await runMk(['mcp', '--print-config', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    )
    for (const snippet of withHome) expect(snippet.text, snippet.client).toContain(workspace.mkHome)
    expect(withHome.find((snippet) => snippet.client === 'Claude Code')?.text).toContain(
      `claude mcp add --scope project --env MK_HOME=${workspace.mkHome} mk -- npx -y mk-knowledge mcp`,
    )
    expect(withHome.find((snippet) => snippet.language === 'toml')?.text).toContain(`env = { MK_HOME = ${JSON.stringify(workspace.mkHome)} }`)
    const vsCode = JSON.parse(withHome.find((snippet) => snippet.client.startsWith('VS Code'))?.text ?? '{}') as { servers: { mk: { env?: unknown } } }
    expect(vsCode.servers.mk.env).toEqual({ MK_HOME: workspace.mkHome })

    const withoutHome = await runMk(['mcp', '--print-config', '--json'], { cwd: workspace.root, env: { MK_HOME: undefined } })
    for (const snippet of parseJson<{ text: string }[]>(withoutHome)) expect(snippet.text).not.toMatch(/MK_HOME|"env"|--env/)
  })
})

/* issue 12: resources and prompts. */

const adrWithBody = `---
type: adr
title: Use PostgreSQL for relational data
status: accepted
tags: [database]
---
# Use PostgreSQL for relational data

New services MUST store relational data in PostgreSQL.
`

async function setUpResources(): Promise<string> {
  workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-use-postgresql.md': adrWithBody })
  const added = await runMk(['memory', 'add', 'The staging database refuses writes on Fridays', '--layer', 'project', '--json'], {
    cwd: workspace.root,
    env: { MK_HOME: workspace.mkHome },
  })
  expect(added.exitCode, added.stderr).toBe(0)
  connection = await connectMcp(workspace)
  return parseJson<{ memoryId: string }>(added).memoryId
}

describe('mk mcp resources and prompts', () => {
  it('lists knowledge items and memories as resources, with templates, and reads them by URI', { timeout: 60_000 }, async () => {
    const memoryId = await setUpResources()
    const client = connection!.client
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} })

    const { resources } = await client.listResources()
    expect(resources).toEqual([
      expect.objectContaining({
        uri: 'mk://knowledge/adr-0001-use-postgresql',
        name: 'adr-0001-use-postgresql',
        title: 'Use PostgreSQL for relational data',
        mimeType: 'text/markdown',
      }),
      expect.objectContaining({ uri: `mk://memory/${memoryId}`, name: memoryId, title: 'The staging database refuses writes on Fridays' }),
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['mk://knowledge/{id}', 'mk://memory/{memoryId}'])

    const item = await client.readResource({ uri: 'mk://knowledge/adr-0001-use-postgresql' })
    expect(item.contents).toHaveLength(1)
    expect(item.contents[0]).toMatchObject({ uri: 'mk://knowledge/adr-0001-use-postgresql', mimeType: 'text/markdown' })
    expect((item.contents[0] as { text: string }).text).toContain('New services MUST store relational data in PostgreSQL.')

    const memory = await client.readResource({ uri: `mk://memory/${memoryId}` })
    expect((memory.contents[0] as { text: string }).text).toContain('The staging database refuses writes on Fridays')
  })

  it("answers a URI that names nothing with the spec's resource-not-found error, and keeps serving", { timeout: 60_000 }, async () => {
    await setUpResources()
    const client = connection!.client
    await expect(client.readResource({ uri: 'mk://knowledge/adr-9999-nothing' })).rejects.toMatchObject({ code: -32002 })
    await expect(client.readResource({ uri: 'https://example.com/x' })).rejects.toMatchObject({ code: -32002 })
    expect((await client.listResources()).resources.length).toBe(2)
  })

  it('offers task-start, which gathers the rules, knowledge and memories relevant to a task', { timeout: 120_000 }, async () => {
    const memoryId = await setUpResources()
    const client = connection!.client
    const { prompts } = await client.listPrompts()
    expect(prompts).toEqual([expect.objectContaining({ name: 'task-start', arguments: [expect.objectContaining({ name: 'task', required: true })] })])

    const prompt = await client.getPrompt({ name: 'task-start', arguments: { task: 'add a staging database migration for the orders service' } })
    expect(prompt.messages).toHaveLength(1)
    const text = (prompt.messages[0]?.content as { text: string }).text
    expect(text).toContain('Task: add a staging database migration for the orders service')
    expect(text).toContain('# Contextual rules for this task')
    expect(text).toContain('- [MUST] New services MUST store relational data in PostgreSQL.')
    expect(text).toContain('adr-0001-use-postgresql: Use PostgreSQL for relational data')
    expect(text).toContain(memoryId)

    await expect(client.getPrompt({ name: 'task-start', arguments: { task: ' ' } })).rejects.toMatchObject({ code: -32602 })
  })
})
