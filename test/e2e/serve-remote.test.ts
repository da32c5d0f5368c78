import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { processExists } from '../../src/hosts/http/daemon.js'
import { runMk, type MkRun } from '../helpers/mk.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* MK_REMOTE: the same commands run locally and through a built `mk serve` must print the same and exit the same. */

const files = {
  'knowledge/adr/adr-0001-use-date-fns.md': `---
type: adr
title: Dates are handled with date-fns
status: accepted
severity: block
constraints:
  - id: no-moment
    operator: must_not_use
    target: dependency
    pattern: "^moment$"
    message: moment is in maintenance mode; use date-fns.
---
# Dates are handled with date-fns
`,
  'package.json': JSON.stringify({ name: 'app', dependencies: { moment: '^2.30.0' } }),
}

const commandTable: readonly (readonly string[])[] = [
  ['knowledge', 'list'],
  ['knowledge', 'list', '--json'],
  ['knowledge', 'show', 'adr-0001-use-date-fns', '--json'],
  ['knowledge', 'show', 'adr-0404-missing', '--json'],
  ['knowledge', 'check', '--json'],
  ['memory', 'add', 'Orders live in Postgres', '--layer', 'project', '--tag', 'db', '--json'],
  ['memory', 'search', 'where do orders live', '--json'],
  ['memory', 'list'],
  ['memory', 'search', 'orders', '--limit', '500', '--json'],
]

/** Per-run values (generated ids, times, the temp folder) compared as placeholders. */
function comparable(run: MkRun, root: string): { stdout: string; exitCode: number } {
  const stdout = run.stdout
    .replaceAll(root, '<root>')
    .replace(/mem_[0-9A-Z]{26}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
  return { stdout, exitCode: run.exitCode }
}

let local: TempWorkspace | undefined
let served: TempWorkspace | undefined
let server: RunningServe | undefined
let elsewhere: string | undefined

afterEach(async () => {
  await server?.stop()
  await local?.cleanup()
  await served?.cleanup()
  if (elsewhere !== undefined) await rm(elsewhere, { recursive: true, force: true })
})

describe('MK_REMOTE', () => {
  it('gives the same output and exit code as running locally, for every command of the table', async () => {
    local = await makeWorkspace(files)
    served = await makeWorkspace()
    await cp(local.root, served.root, { recursive: true })
    server = await startServe({ cwd: served.root, env: { MK_HOME: served.mkHome } })
    elsewhere = await mkdtemp(join(tmpdir(), 'mk-remote-client-'))
    for (const command of commandTable) {
      const here = await runMk(command, { cwd: local.root, env: { MK_HOME: local.mkHome } })
      const there = await runMk(command, { cwd: elsewhere, env: { MK_HOME: join(elsewhere, 'home'), MK_REMOTE: server.url } })
      expect(comparable(there, served.root), command.join(' ')).toEqual(comparable(here, local.root))
    }
    // The table covers success, exit 1 (a violation) and exit 2 (not found, invalid input).
    const exits = await Promise.all(
      commandTable.map(async (command) => (await runMk(command, { cwd: local?.root ?? '', env: { MK_HOME: local?.mkHome } })).exitCode),
    )
    expect(new Set(exits)).toEqual(new Set([0, 1, 2]))
  }, 120_000)

  it('exits 2 with UNAVAILABLE when the server cannot be reached', async () => {
    elsewhere = await mkdtemp(join(tmpdir(), 'mk-remote-client-'))
    const run = await runMk(['knowledge', 'list', '--json'], { cwd: elsewhere, env: { MK_REMOTE: 'http://127.0.0.1:9' } })
    expect(run.exitCode).toBe(2)
    expect(JSON.parse(run.stdout)).toMatchObject({ errorCode: 'UNAVAILABLE', message: expect.stringContaining('MK_REMOTE') })
  })

  it('sends MK_API_KEY and MK_TENANT', async () => {
    served = await makeWorkspace()
    const data = join(served.root, 'data')
    server = await startServe({
      cwd: served.root,
      args: ['--data', data],
      env: { MK_HOME: served.mkHome, MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: JSON.stringify({ 'key-a': { tenant_id: 'team-a' } }) },
    })
    elsewhere = await mkdtemp(join(tmpdir(), 'mk-remote-client-'))
    const env = { MK_HOME: join(elsewhere, 'home'), MK_REMOTE: server.url }
    const added = await runMk(['memory', 'add', 'Team A uses Postgres', '--layer', 'project', '--json'], {
      cwd: elsewhere,
      env: { ...env, MK_API_KEY: 'key-a' },
    })
    expect(added.exitCode).toBe(0)
    const refused = await runMk(['memory', 'list', '--json'], { cwd: elsewhere, env })
    expect(JSON.parse(refused.stdout)).toMatchObject({ errorCode: 'UNAUTHORIZED' })
    const otherTenant = await runMk(['memory', 'list', '--json'], { cwd: elsewhere, env: { ...env, MK_API_KEY: 'key-a', MK_TENANT: 'team-b' } })
    expect(JSON.parse(otherTenant.stdout)).toMatchObject({ errorCode: 'FORBIDDEN' })
    const listed = await runMk(['memory', 'list', '--json'], { cwd: elsewhere, env: { ...env, MK_API_KEY: 'key-a', MK_TENANT: 'team-a' } })
    expect(listed.stdout).toContain('Team A uses Postgres')
  }, 60_000)
})

describe('local acceleration through mk serve --socket', () => {
  it('memory search, knowledge query and rules use the workspace socket while it runs, and run locally once it is gone', async () => {
    local = await makeWorkspace(files)
    const env = { MK_HOME: local.mkHome, MK_AGENT_ID: 'agent-7' }
    expect((await runMk(['memory', 'add', 'Orders live in Postgres', '--layer', 'project'], { cwd: local.root, env })).exitCode).toBe(0)
    // Everything indexed first: a search calibrates its vector scores on the index's first vectors,
    // knowledge's too, so a memory search run before the knowledge query had indexed the ADR
    // scored differently from the same search once it had (0.5552 against 0.5404).
    expect((await runMk(['index', 'update'], { cwd: local.root, env })).exitCode).toBe(0)
    const commands = [
      ['memory', 'search', 'where do orders live', '--json'],
      ['knowledge', 'query', 'which date library', '--json'],
      ['rules', 'directives', 'add a database', '--json'],
    ]
    const before = await Promise.all(commands.map((command) => runMk(command, { cwd: local?.root ?? '', env })))
    // A team-server setting in the environment must not lock the CLI out of its own socket.
    server = await startServe({
      cwd: local.root,
      args: ['--socket', '.mk/serve.sock'],
      env: { MK_HOME: local.mkHome, MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: '{"k":{"tenant_id":"t"}}' },
    })
    expect(server.url).toBe(`unix:${join(local.root, '.mk', 'serve.sock')}`)
    for (const [index, command] of commands.entries()) {
      const viaSocket = await runMk(command, { cwd: local.root, env })
      expect(comparable(viaSocket, local.root), command.join(' ')).toEqual(comparable(before[index] as MkRun, local.root))
    }
    const served = server
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool?: string })
      .map((line) => line.tool)
    expect(served).toEqual(expect.arrayContaining(['memory_search', 'knowledge_query', 'rules_query_directives']))
    // A folder that does not exist is an error, not a question for the server of the workspace above it.
    await local.write('.mkrc', '')
    const missing = await runMk(['memory', 'search', 'orders', '--json', '--cwd', join(local.root, 'no-such-folder')], { cwd: local.root, env })
    expect(missing.exitCode).toBe(2)
    expect(JSON.parse(missing.stdout)).toMatchObject({ errorCode: 'INVALID_INPUT' })
    // Writes never go through the socket.
    expect((await runMk(['memory', 'add', 'Invoices live in Postgres too', '--layer', 'project'], { cwd: local.root, env })).exitCode).toBe(0)
    expect(server.stderr()).not.toContain('memory_add')
    expect(await server.stop()).toBe(0)
    server = undefined
    const after = await runMk(commands[0] ?? [], { cwd: local.root, env })
    expect(after.exitCode).toBe(0)
    expect(after.stdout).toContain('Invoices live in Postgres')
  }, 120_000)
  // Issue 27 / DESIGN.md's 150 ms: most of a search through the socket was loading mk's bundle.
  it('answers memory search from the socket before mk is loaded, as mk itself would, and leaves what it does not read to mk', async () => {
    local = await makeWorkspace(files)
    const env = { MK_HOME: local.mkHome }
    expect((await runMk(['memory', 'add', 'Orders live in Postgres', '--layer', 'project'], { cwd: local.root, env })).exitCode).toBe(0)
    server = await startServe({ cwd: local.root, args: ['--socket', '.mk/serve.sock'], env })
    const report = join(local.root, 'loaded.json')
    const preload = fileURLToPath(new URL('../helpers/report-loaded-files.cjs', import.meta.url))
    const traced = async (args: readonly string[]): Promise<{ run: MkRun; loaded: string[] }> => {
      const run = await runMk(args, { cwd: local?.root ?? '', env: { ...env, NODE_OPTIONS: `--require ${preload}`, MK_TEST_LOADED_FILES: report } })
      const loaded = (JSON.parse(await readFile(report, 'utf8')) as string[]).map((file) => file.slice(file.lastIndexOf('/') + 1))
      return { run, loaded }
    }
    for (const flags of [['--json'], [], ['--limit', '0', '--json'], ['--layer', 'project', '--threshold', '0']]) {
      const fast = await traced(['memory', 'search', 'where do orders live', ...flags])
      expect(fast.loaded, flags.join(' ')).toContain('search-fast-path.cjs')
      expect(fast.loaded, flags.join(' ')).not.toContain('load-bundle.cjs')
      // --cwd is left to mk, which asks the same server through its own client.
      const slow = await traced(['memory', 'search', 'where do orders live', ...flags, '--cwd', local.root])
      expect(slow.loaded).toContain('load-bundle.cjs')
      expect(comparable(fast.run, local.root), flags.join(' ')).toEqual(comparable(slow.run, local.root))
    }
    const rejected = await traced(['memory', 'search', 'orders', '--limit', 'many'])
    expect(rejected.loaded).toContain('load-bundle.cjs')
    expect(rejected.run.exitCode).toBe(2)
    expect(rejected.run.stderr).toContain('--limit')
  }, 120_000)
})

describe('mk daemon', () => {
  it('starts mk serve on the workspace socket once, which search then uses, and stops it', async () => {
    local = await makeWorkspace(files)
    const env = { MK_HOME: local.mkHome }
    const started = await runMk(['daemon', 'start', '--json'], { cwd: local.root, env })
    expect(started.exitCode).toBe(0)
    const state = JSON.parse(started.stdout) as { running: boolean; socket: string; pid: number; log: string }
    // However the test ends, no server outlives it (stopped already: there is nothing to signal).
    onTestFinished(() => {
      if (processExists(state.pid)) process.kill(state.pid, 'SIGTERM')
    })
    expect(state).toMatchObject({ running: true, socket: join(local.root, '.mk', 'serve.sock'), pid: expect.any(Number) })
    const again = JSON.parse((await runMk(['daemon', 'start', '--json'], { cwd: local.root, env })).stdout) as { pid: number }
    expect(again.pid).toBe(state.pid)
    expect((await runMk(['memory', 'search', 'orders', '--json'], { cwd: local.root, env })).exitCode).toBe(0)
    // The server writes a request's log line after it answers: the search may have exited before it is written.
    await vi.waitFor(async () => expect(await readFile(state.log, 'utf8')).toContain('"tool":"memory_search"'), { timeout: 10_000, interval: 50 })
    const stopped = JSON.parse((await runMk(['daemon', 'stop', '--json'], { cwd: local.root, env })).stdout) as { running: boolean; pid: number }
    expect(stopped).toMatchObject({ running: false, pid: state.pid })
    expect(processExists(state.pid)).toBe(false)
    const none = JSON.parse((await runMk(['daemon', 'stop', '--json'], { cwd: local.root, env })).stdout) as { running: boolean; pid?: number }
    expect(none).toEqual({ running: false, socket: state.socket, log: state.log })
  }, 120_000)
})
