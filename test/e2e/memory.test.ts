import { spawn } from 'node:child_process'
import { readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as fs from 'node:fs'
import git from 'isomorphic-git'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { schemaVersion } from '../../src/search/schema.js'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

let ws: TempWorkspace
let mk: (args: string[], env?: Record<string, string | undefined>) => Promise<MkRun>

beforeEach(async () => {
  ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
  mk = (args, env = {}) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined, ...env } })
})
afterEach(() => ws.cleanup())

interface AddOutput {
  memoryId: string
  deduplicated: boolean
  redactions: { kind: string; count: number }[]
}
interface SearchOutput {
  results: { memoryId: string; content: string; layer: string; score: number }[]
  searchMode: string
  searchedLayers: string[]
}

async function add(content: string, ...flags: string[]): Promise<AddOutput> {
  const run = await mk(['memory', 'add', content, '--json', ...flags])
  expect(run.exitCode, run.stderr + run.stdout).toBe(0)
  return parseJson<AddOutput>(run)
}

async function search(query: string, ...flags: string[]): Promise<SearchOutput & { run: MkRun }> {
  const run = await mk(['memory', 'search', query, '--json', ...flags])
  expect(run.exitCode, run.stderr + run.stdout).toBe(0)
  return { ...parseJson<SearchOutput>(run), run }
}

function expectCleanError(run: MkRun, pattern: RegExp): void {
  expect(run.exitCode).toBe(2)
  const error = parseJson<{ success: boolean; message: string }>(run)
  expect(error.success).toBe(false)
  expect(error.message).toMatch(pattern)
  expect(run.stderr).not.toMatch(/\n\s+at /)
}

describe('mk memory', () => {
  it('adds, finds, lists, shows, deletes and restores memories across layers', async () => {
    const project = await add('We store everything in Postgres', '--layer', 'project', '--tag', 'database')
    const user = await add('I prefer small pull requests')
    expect((await readdir(join(ws.root, 'knowledge', 'memory'))).sort()).toEqual([`${project.memoryId}.md`])
    expect(await readdir(join(ws.mkHome, 'memory', 'user'))).toEqual([`${user.memoryId}.md`])

    const found = await search('postgres')
    expect(found.searchMode).toBe('fulltext')
    expect(found.results.map((result) => result.memoryId)).toEqual([project.memoryId])
    expect(found.searchedLayers).toEqual(['user', 'project'])
    expect((await search('pull requests', '--layer', 'project')).results).toEqual([])

    const list = parseJson<{ memories: { memoryId: string }[] }>(await mk(['memory', 'list', '--json']))
    expect(list.memories.map((memory) => memory.memoryId)).toEqual([user.memoryId, project.memoryId])

    const shown = parseJson<{ content: string; tags: string[]; file: string }>(await mk(['memory', 'show', project.memoryId, '--json']))
    expect(shown).toMatchObject({ content: 'We store everything in Postgres', tags: ['database'], file: `knowledge/memory/${project.memoryId}.md` })

    for (const memory of [project, user]) {
      const deleted = await mk(['memory', 'delete', memory.memoryId, '--yes'])
      expect(deleted.exitCode, deleted.stderr).toBe(0)
    }
    expect((await search('postgres')).results).toEqual([])
    expectCleanError(await mk(['memory', 'show', user.memoryId, '--json']), /no memory mem_\w+ in the layers visible here/)

    for (const memory of [project, user]) {
      const restored = await mk(['memory', 'restore', memory.memoryId, '--json'])
      expect(restored.exitCode, restored.stdout + restored.stderr).toBe(0)
    }
    expect((await search('postgres')).results.map((result) => result.memoryId)).toEqual([project.memoryId])
    expect((await search('pull requests')).results.map((result) => result.memoryId)).toEqual([user.memoryId])

    const commits = await git.log({ fs, dir: ws.mkHome })
    expect(commits.map((entry) => entry.commit.message.split('\n')[0])).toEqual([
      `restore ${user.memoryId} (user)`,
      `delete ${user.memoryId}`,
      `delete ${project.memoryId}`,
      `add ${user.memoryId} (user)`,
    ])
  })

  it('returns the existing id for the same content in a layer and writes nothing', async () => {
    const first = await add('Deploys happen on Tuesdays', '--layer', 'project')
    const again = await add('  deploys   happen on tuesdays. ', '--layer', 'project')
    expect(again).toMatchObject({ memoryId: first.memoryId, deduplicated: true })
    expect(await readdir(join(ws.root, 'knowledge', 'memory'))).toHaveLength(1)
    const otherLayer = await add('Deploys happen on Tuesdays')
    expect(otherLayer.deduplicated).toBe(false)
  })

  it('redacts secrets before writing and says what it redacted', async () => {
    const added = await add('staging: postgres://app:hunter2secret@db.internal:5432/app, CI token 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')
    expect(added.redactions).toEqual([
      { kind: 'connection-string-password', count: 1 },
      { kind: 'github', count: 1 },
    ])
    const text = await readFile(join(ws.mkHome, 'memory', 'user', `${added.memoryId}.md`), 'utf8')
    expect(text).toContain('postgres://app:[REDACTED:connection-string-password]@db.internal:5432/app')
    expect(text).not.toContain('hunter2secret')
    expect(text).not.toContain('ghp_')
  })

  it('keeps agent and session memories apart by id', async () => {
    const alice = await add('Alice runs the migrations', '--layer', 'agent', '--agent', 'alice')
    expect((await search('migrations', '--agent', 'bob')).results).toEqual([])
    const noAgent = await search('migrations', '--layer', 'agent')
    expect(noAgent.results).toEqual([])
    expect(noAgent.run.stderr).toMatch(/the agent layer is not visible here/)
    const viaEnv = await mk(['memory', 'search', 'migrations', '--json'], { MK_AGENT_ID: 'alice' })
    expect(parseJson<SearchOutput>(viaEnv).results.map((result) => result.memoryId)).toEqual([alice.memoryId])
    expectCleanError(await mk(['memory', 'add', 'no id', '--layer', 'session', '--json']), /session layer needs an id: pass --session ID or MK_SESSION_ID/)
  })

  it('skips a corrupt memory file with a warning naming it, and still finds the rest', async () => {
    const good = await add('The cache bucket is mk-cache')
    await writeFile(join(ws.mkHome, 'memory', 'user', 'mem_01JAAAAAAAAAAAAAAAAAAAAAAA.md'), '---\nid: [broken\n---\ncache\n')
    const found = await search('cache')
    expect(found.results.map((result) => result.memoryId)).toEqual([good.memoryId])
    expect(found.run.stderr).toMatch(/skipped memory file \$MK_HOME\/memory\/user\/mem_01JAAAAAAAAAAAAAAAAAAAAAAA\.md: malformed frontmatter/)
    // Fixed in place (the folder itself does not change): the next search finds it.
    const fixed = '---\nid: mem_01JAAAAAAAAAAAAAAAAAAAAAAA\nlayer: user\ncreated: 2026-11-20\n---\nthe cache is warmed at six\n'
    await writeFile(join(ws.mkHome, 'memory', 'user', 'mem_01JAAAAAAAAAAAAAAAAAAAAAAA.md'), fixed)
    const again = await search('cache')
    expect(again.results.map((result) => result.memoryId).sort()).toEqual(['mem_01JAAAAAAAAAAAAAAAAAAAAAAA', good.memoryId].sort())
    expect(again.run.stderr).not.toMatch(/skipped/)
  })

  it('rebuilds a truncated index from the files with a notice, losing nothing', async () => {
    const ids: string[] = []
    for (const word of ['alpha', 'beta', 'gamma']) ids.push((await add(`the ${word} service owns billing`, '--layer', 'project')).memoryId)
    const indexPath = join(ws.root, '.mk', 'index.db')
    // Fill the index beyond its first pages so that truncation cuts real data.
    await writeFile(join(ws.root, 'knowledge', 'big.md'), `---\ntitle: Big\n---\n${'filler words for the index '.repeat(4000)}\n`)
    expect((await mk(['index', 'update'])).exitCode).toBe(0)
    await truncate(indexPath, Math.floor((await stat(indexPath)).size / 2))
    const found = await search('billing')
    expect(found.run.stderr).toMatch(/search index \.mk\/index\.db was truncated; it was recreated and is rebuilt from the files/)
    expect(found.results.map((result) => result.memoryId).sort()).toEqual([...ids].sort())
  })

  it('rebuilds the index from the files, with plain progress lines off a terminal and nothing but JSON with --json', async () => {
    await add('The release train leaves on Thursdays', '--layer', 'project')
    await add('I review pull requests after lunch')
    await ws.write('knowledge/adr/adr-0001-trains.md', '---\ntitle: Release trains\ntype: adr\nstatus: accepted\n---\nWe release on a weekly train.\n')
    const plain = await mk(['index', 'rebuild'])
    expect(plain.exitCode, plain.stderr).toBe(0)
    expect(plain.stderr).toMatch(/^reading files: 3\/3$/m)
    expect(plain.stdout).toMatch(/Rebuilt the index: 3 documents \(2 memories, 1 knowledge, 0 directives\)/)
    const json = await mk(['index', 'rebuild', '--json'])
    expect(json.stderr).toBe('')
    expect(parseJson(json)).toMatchObject({ documents: 3, memories: 2, knowledge: 1, searchMode: 'fulltext' })
    const status = parseJson<Record<string, unknown>>(await mk(['index', 'status', '--json']))
    expect(status).toMatchObject({ documents: 3, path: '.mk/index.db', schemaVersion, refreshedAt: expect.any(String) })
    expect(JSON.stringify(status)).not.toContain(ws.mkHome)
  })

  it('keeps adding and finding memories by full text when the model folder is missing, with a warning', async () => {
    await ws.write('.mkrc', 'search:\n  embedding:\n    provider: transformers\n    model: ./models/missing\n')
    const added = await mk(['memory', 'add', 'The nightly job prunes old artifacts', '--json'])
    expect(added.exitCode).toBe(0)
    expect(added.stderr).toMatch(/models\/missing does not exist; searching full text only until the embedding model is fixed/)
    const found = await search('artifacts')
    expect(found.searchMode).toBe('fulltext')
    expect(found.results.map((result) => result.memoryId)).toEqual([parseJson<AddOutput>(added).memoryId])
  })

  it('rejects bad input with one clear line and exit 2', async () => {
    expectCleanError(await mk(['memory', 'add', '   ', '--json']), /content: expected non-empty text/)
    expectCleanError(await mk(['memory', 'add', 'x'.repeat(10_001), '--json']), /content: .*at most 10000 characters/)
    expectCleanError(await mk(['memory', 'add', 'fact', '--layer', 'galaxy', '--json']), /layer/)
    expectCleanError(await mk(['memory', 'search', 'fact', '--limit', '0', '--json']), /limit/)
    expectCleanError(await mk(['memory', 'search', 'fact', '--limit', '1000', '--json']), /limit/)
    expectCleanError(await mk(['memory', 'search', 'fact', '--threshold', '2', '--json']), /threshold/)
    expectCleanError(await mk(['memory', 'delete', 'mem_01JAAAAAAAAAAAAAAAAAAAAAAA', '--json']), /no memory mem_01JAAAAAAAAAAAAAAAAAAAAAAA/)
    expectCleanError(await mk(['memory', 'delete', 'not-an-id', '--json']), /not a memory id/)
    const plain = await mk(['memory', 'add', ''])
    expect(plain.exitCode).toBe(2)
    expect(plain.stderr.trim().split('\n')[0]).toMatch(/^Error \[INVALID_INPUT\]/)
  })

  it('loses nothing when 8 processes add 50 memories each at the same time', async () => {
    const writer = fileURLToPath(new URL('./fixtures/memory-writer.mjs', import.meta.url))
    const runs = await Promise.all(
      Array.from(
        { length: 8 },
        (_, n) =>
          new Promise<{ code: number | null; output: string }>((resolve) => {
            const child = spawn(process.execPath, [writer, String(n), '50'], { cwd: ws.root, env: { ...process.env, MK_HOME: ws.mkHome } })
            let output = ''
            child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
            child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
            child.on('close', (code) => resolve({ code, output }))
          }),
      ),
    )
    for (const run of runs) expect(run.code, run.output).toBe(0)
    const userFiles = await readdir(join(ws.mkHome, 'memory', 'user'))
    const projectFiles = await readdir(join(ws.root, 'knowledge', 'memory'))
    expect(userFiles.length + projectFiles.length).toBe(400)
    const commits = await git.log({ fs, dir: ws.mkHome })
    expect(commits.filter((entry) => entry.commit.message.startsWith('add '))).toHaveLength(200)
    const status = parseJson<{ memories: number }>(await mk(['index', 'status', '--json']))
    expect(status.memories).toBe(400)
    const listed = parseJson<{ totalCount: number }>(await mk(['memory', 'list', '--limit', '1000', '--json']))
    expect(listed.totalCount).toBe(400)
    const one = await search('bucket 5-49')
    expect(one.results[0]?.content).toBe('writer 5 fact 49: the build cache lives in bucket 5-49')
  }, 240_000)
})

describe('search through the index with the bundled encoder', () => {
  it('finds "We store everything in Postgres" for "what database do we use" by meaning', async () => {
    await ws.write('.mkrc', '')
    const postgres = await add('We store everything in Postgres', '--layer', 'project')
    await add('The office plants need watering on Mondays')
    await add('Lunch is served at noon in the canteen')
    const found = await search('what database do we use')
    expect(found.searchMode).toBe('hybrid')
    expect(found.results[0]?.memoryId).toBe(postgres.memoryId)
    const status = parseJson<{ model: string; pendingEmbeddings: number }>(await mk(['index', 'status', '--json']))
    expect(status).toMatchObject({ model: expect.stringMatching(/^bundled/), pendingEmbeddings: 0 })
  }, 120_000)

  it('knowledge_query sees a knowledge file edited since the last query', async () => {
    const adr = (title: string, body: string): string => `---\ntitle: ${title}\ntype: adr\nstatus: accepted\n---\n${body}\n`
    await ws.write('knowledge/adr/adr-0001-queue.md', adr('Use RabbitMQ', 'Messages go through RabbitMQ.'))
    await ws.write('knowledge/adr/adr-0002-db.md', adr('Use PostgreSQL', 'Relational data lives in PostgreSQL.'))
    const query = async (text: string): Promise<string[]> =>
      parseJson<{ items: { id: string }[] }>(await mk(['knowledge', 'query', text, '--json'])).items.map((item) => item.id)
    expect(await query('rabbitmq')).toEqual(['adr-0001-queue'])
    await ws.write('knowledge/adr/adr-0001-queue.md', adr('Use Kafka', 'Messages go through Kafka.'))
    expect(await query('rabbitmq')).toEqual([])
    expect(await query('kafka')).toEqual(['adr-0001-queue'])
  })
})
