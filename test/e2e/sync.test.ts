import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startGitServer, unusedPort, type GitServer } from '../helpers/git-server.js'
import { mkBin, parseJson, runMk } from '../helpers/mk.js'
import { gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

function adr(id: string, title: string, extra: string[] = []): string {
  return ['---', `id: ${id}`, 'type: adr', `title: ${title}`, 'status: accepted', ...extra, '---', `# ${title}`, '', 'Some decision text.', ''].join('\n')
}

interface SyncOutput {
  success: boolean
  result: {
    added: number
    updated: number
    deleted: number
    unchanged: number
    reparsed: number
    failures: { source: string; path?: string; errorCode: string; message: string; retryable: boolean; hint?: string }[]
    changes: { source: string; path: string; id?: string; change: string }[]
  }
  sources: { name: string; action: string; commit?: string; added: number; updated: number; deleted: number; unchanged: number }[]
  message: string
}

function config(sources: string[]): string {
  return ['knowledge:', '  sources:', ...sources].join('\n')
}

let server: GitServer
const workspaces: TempWorkspace[] = []

async function workspaceWith(mkrc: string, files: Record<string, string> = {}): Promise<TempWorkspace> {
  const workspace = await makeWorkspace({ '.mkrc': mkrc, 'knowledge/adr/adr-0001-local.md': adr('adr-0001-local', 'A local decision'), ...files })
  workspaces.push(workspace)
  return workspace
}

async function sync(
  workspace: TempWorkspace,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<{ output: SyncOutput; exitCode: number; stderr: string }> {
  const run = await runMk(['sync', '--json', ...args], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, ...env } })
  return { output: parseJson<SyncOutput>(run), exitCode: run.exitCode, stderr: run.stderr }
}

beforeAll(async () => {
  server = await startGitServer()
})

afterAll(async () => {
  await server.close()
  await Promise.all(workspaces.map((workspace) => workspace.cleanup()))
})

describe('mk sync from a git remote', () => {
  test('clones, then applies added, edited and deleted items, then re-parses nothing when nothing changed', async () => {
    const remote = await server.createRepo('company-a', {
      'decisions/adr-0100-postgres.md': adr('adr-0100-postgres', 'Use PostgreSQL'),
      'decisions/adr-0101-queues.md': adr('adr-0101-queues', 'Use a queue'),
      'decisions/README.md': '# not an item',
      'other/ignored.md': adr('adr-0999-outside', 'Outside the dir'),
    })
    const workspace = await workspaceWith(
      config(['    - {name: project, layer: project, path: knowledge}', `    - {name: company, layer: company, url: "${remote.url}", dir: decisions}`]),
    )

    const first = await sync(workspace)
    expect(first.exitCode).toBe(0)
    expect(first.output.success).toBe(true)
    expect(first.output.result).toMatchObject({ added: 3, updated: 0, deleted: 0, unchanged: 0, reparsed: 3, failures: [] })
    const company = first.output.sources.find((source) => source.name === 'company')
    expect(company).toMatchObject({ action: 'cloned', commit: await remote.head(), added: 2 })

    const listed = parseJson<{ items: { id: string; layer: string }[] }>(
      await runMk(['knowledge', 'list', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    )
    expect(listed.items.map((item) => `${item.id}@${item.layer}`).sort()).toEqual([
      'adr-0001-local@project',
      'adr-0100-postgres@company',
      'adr-0101-queues@company',
    ])

    const second = await remote.commit({
      'decisions/adr-0100-postgres.md': adr('adr-0100-postgres', 'Use PostgreSQL 16'),
      'decisions/adr-0101-queues.md': null,
      'decisions/adr-0102-logging.md': adr('adr-0102-logging', 'Structured logging'),
      'decisions/adr-0103-tracing.md': adr('adr-0103-tracing', 'Tracing'),
    })
    const update = await sync(workspace)
    expect(update.output.result).toMatchObject({ added: 2, updated: 1, deleted: 1, unchanged: 1, reparsed: 3 })
    expect(update.output.sources.find((source) => source.name === 'company')).toMatchObject({ action: 'updated', commit: second })
    expect(update.output.result.changes.map((change) => `${change.change} ${change.id ?? ''}`).sort()).toEqual([
      'added adr-0102-logging',
      'added adr-0103-tracing',
      'deleted adr-0101-queues',
      'updated adr-0100-postgres',
    ])

    const again = await sync(workspace)
    expect(again.output.result).toMatchObject({ added: 0, updated: 0, deleted: 0, unchanged: 4, reparsed: 0 })
    expect(again.output.sources.find((source) => source.name === 'company')?.action).toBe('unchanged')

    const forced = await sync(workspace, ['--force'])
    expect(forced.output.result).toMatchObject({ added: 0, updated: 0, deleted: 0, unchanged: 4, reparsed: 4 })
  })

  test('a company constraint synced from the remote is enforced by mk knowledge check, even under a project item of the same id', async () => {
    const noMysql = adr('adr-0900-database', 'PostgreSQL for relational data', [
      'severity: block',
      'constraints:',
      '  - id: no-mysql',
      '    operator: must_not_use',
      '    target: dependency',
      '    pattern: "^(mysql|mysql2)$"',
      '    message: Use PostgreSQL.',
    ])
    const remote = await server.createRepo('company-constraint', { 'adr/adr-0900-database.md': noMysql })
    const workspace = await workspaceWith(
      config(['    - {name: project, layer: project, path: knowledge}', `    - {name: company, layer: company, url: "${remote.url}"}`]),
      { 'package.json': '{"dependencies": {"mysql2": "^3.0.0"}}\n' },
    )
    const env = { MK_HOME: workspace.mkHome }
    const check = async (): Promise<{
      exitCode: number
      output: { passed: boolean; violations: { knowledgeItemId: string; constraintId: string; location: { file: string } }[] }
    }> => {
      const run = await runMk(['knowledge', 'check', '--json'], { cwd: workspace.root, env })
      return { exitCode: run.exitCode, output: parseJson(run) }
    }
    const unsynced = await check()
    expect(unsynced.output.violations).toEqual([])

    await sync(workspace)
    const blocked = await check()
    expect(blocked.exitCode).toBe(1)
    expect(blocked.output.passed).toBe(false)
    expect(blocked.output.violations).toEqual([
      expect.objectContaining({ knowledgeItemId: 'adr-0900-database', constraintId: 'no-mysql', location: expect.objectContaining({ file: 'package.json' }) }),
    ])

    // A project item with the same id shadows the company one in show, but cannot switch its constraint off.
    await workspace.write('knowledge/adr/adr-0900-database.md', adr('adr-0900-database', 'Project take on databases'))
    const shown = parseJson<{ layer: string; shadows: { layer: string; path: string }[] }>(
      await runMk(['knowledge', 'show', 'adr-0900-database', '--json'], { cwd: workspace.root, env }),
    )
    expect(shown.layer).toBe('project')
    expect(shown.shadows).toEqual([expect.objectContaining({ layer: 'company', path: expect.stringContaining('adr-0900-database.md') })])
    const stillBlocked = await check()
    expect(stillBlocked.exitCode).toBe(1)
    expect(stillBlocked.output.violations.map((violation) => violation.constraintId)).toEqual(['no-mysql'])
  })

  test('a rewritten remote history is reported and not applied unless --force', async () => {
    const remote = await server.createRepo('company-rewrite', { 'adr/adr-0200-a.md': adr('adr-0200-a', 'A') })
    const workspace = await workspaceWith(config([`    - {name: company, layer: company, url: "${remote.url}"}`]))
    const first = await sync(workspace)
    const kept = first.output.sources[0]?.commit
    expect(kept).toBe(await remote.head())

    const rewritten = await remote.rewrite({ 'adr/adr-0201-b.md': adr('adr-0201-b', 'B') })
    const refused = await sync(workspace)
    expect(refused.exitCode).toBe(2)
    expect(refused.output.success).toBe(false)
    expect(refused.output.result.failures).toHaveLength(1)
    expect(refused.output.result.failures[0]).toMatchObject({ source: 'company', errorCode: 'CONFLICT', retryable: false })
    expect(refused.output.result.failures[0]?.message).toContain('history was rewritten')
    expect(refused.output.result.failures[0]?.hint).toContain('mk sync --force')
    expect(refused.output.sources[0]).toMatchObject({ action: 'failed' })
    const ids = async (): Promise<string[]> =>
      parseJson<{ items: { id: string }[] }>(
        await runMk(['knowledge', 'list', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
      ).items.map((item) => item.id)
    expect(await ids()).toEqual(['adr-0200-a'])

    const forced = await sync(workspace, ['--force'])
    expect(forced.exitCode).toBe(0)
    expect(forced.output.sources[0]).toMatchObject({ action: 'updated', commit: rewritten })
    expect(forced.output.result).toMatchObject({ added: 1, unchanged: 1 })
    expect(await ids()).toEqual(['adr-0200-a', 'adr-0201-b'])
  })

  test('one unreachable source fails with a retryable error and does not stop the others', async () => {
    const remote = await server.createRepo('company-ok', { 'adr/adr-0300-ok.md': adr('adr-0300-ok', 'Fine') })
    const port = await unusedPort()
    const workspace = await workspaceWith(
      config([
        '    - {name: project, layer: project, path: knowledge}',
        `    - {name: team, layer: team, url: "http://127.0.0.1:${port}/gone.git"}`,
        `    - {name: company, layer: company, url: "${remote.url}"}`,
      ]),
    )
    const run = await sync(workspace)
    expect(run.exitCode).toBe(2)
    expect(run.output.success).toBe(false)
    expect(run.output.result.failures).toEqual([
      expect.objectContaining({ source: 'team', errorCode: 'PROVIDER_ERROR', retryable: true, message: expect.stringContaining('connection refused') }),
    ])
    expect(run.output.result.added).toBe(2)
    expect(run.output.sources.map((source) => `${source.name}:${source.action}`)).toEqual(['project:scanned', 'team:failed', 'company:cloned'])

    const human = await runMk(['sync'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(human.exitCode).toBe(2)
    expect(human.stdout).toMatch(/\[PROVIDER_ERROR, retryable\] source "team": cannot reach http:\/\/127\.0\.0\.1:\d+\/gone\.git \(connection refused\)/)
    expect(human.stdout + human.stderr).not.toMatch(/\n\s+at /)
  })

  test('a damaged local clone is detected and cloned again', async () => {
    const remote = await server.createRepo('company-corrupt', { 'adr/adr-0400-a.md': adr('adr-0400-a', 'A') })
    const workspace = await workspaceWith(config([`    - {name: company, layer: company, url: "${remote.url}"}`]))
    await sync(workspace)
    const packs = join(workspace.mkHome, 'sources', 'company', '.git', 'objects', 'pack')
    for (const file of await readdir(packs)) await writeFile(join(packs, file), 'garbage')
    const run = await sync(workspace)
    expect(run.exitCode).toBe(0)
    expect(run.output.sources[0]).toMatchObject({ action: 'cloned', commit: await remote.head() })
    expect(run.output.result).toMatchObject({ added: 0, updated: 0, unchanged: 1 })
    expect(run.stderr).toContain('damaged')
  })

  test('a sync killed while fetching leaves the last good state; the next sync completes it', async () => {
    const remote = await server.createRepo('company-interrupt', {
      'adr/adr-0500-a.md': adr('adr-0500-a', 'A'),
      'adr/adr-0501-b.md': adr('adr-0501-b', 'B'),
    })
    const workspace = await workspaceWith(config([`    - {name: company, layer: company, url: "${remote.url}"}`]))
    await sync(workspace)
    const statePath = join(workspace.root, '.mk', 'sync-state.json')
    const before = await readFile(statePath, 'utf8')
    await remote.commit({ 'adr/adr-0500-a.md': adr('adr-0500-a', 'A, revised'), 'adr/adr-0501-b.md': null, 'adr/adr-0502-c.md': adr('adr-0502-c', 'C') })

    const release = server.hold((method) => method === 'POST')
    const child = spawn(process.execPath, [mkBin, 'sync', '--json'], {
      cwd: workspace.root,
      env: { ...process.env, MK_HOME: workspace.mkHome },
      stdio: 'ignore',
    })
    const closed = once(child, 'close')
    await new Promise<void>((resolve) => {
      const onRequest = (line: string): void => {
        if (!line.startsWith('POST ')) return
        server.events.off('request', onRequest)
        resolve()
      }
      server.events.on('request', onRequest)
    })
    child.kill('SIGKILL')
    await closed
    release()

    expect(await readFile(statePath, 'utf8')).toBe(before)
    expect(existsSync(join(workspace.mkHome, 'sources', '.company.lock'))).toBe(true)
    const run = await sync(workspace)
    expect(run.exitCode).toBe(0)
    expect(run.output.result).toMatchObject({ added: 1, updated: 1, deleted: 1, unchanged: 0 })
    expect(existsSync(join(workspace.mkHome, 'sources', '.company.lock'))).toBe(false)
  })

  test('bad input: an unknown layer, an unknown flag, an ssh url and a url with credentials are clear one-line errors', async () => {
    const workspace = await workspaceWith(
      config([
        '    - {name: project, layer: project, path: knowledge}',
        '    - {name: viassh, layer: team, url: "git@github.com:acme/kb.git"}',
        '    - {name: leaky, layer: org, url: "https://me:hunter2@git.example.com/kb.git"}',
      ]),
    )
    for (const args of [['--layer', 'galaxy'], ['--nope']]) {
      const run = await runMk(['sync', ...args], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
      expect(run.exitCode).toBe(2)
      expect(run.stderr.trim().split('\n')[0]).toMatch(/^Error \[INVALID_INPUT\] /)
      expect(run.stderr).not.toMatch(/\n\s+at /)
    }
    const readOnly = await runMk(['sync', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_READ_ONLY: '1' } })
    expect(readOnly.exitCode).toBe(2)
    expect(parseJson(readOnly)).toMatchObject({ errorCode: 'FORBIDDEN' })
    const statusReadOnly = await runMk(['sync', 'status', '--offline', '--json'], {
      cwd: workspace.root,
      env: { MK_HOME: workspace.mkHome, MK_READ_ONLY: '1' },
    })
    expect(parseJson(statusReadOnly)).toMatchObject({ healthy: false, timeSinceSync: 'never' })

    const run = await sync(workspace)
    expect(run.exitCode).toBe(2)
    expect(run.output.result.failures.map((failure) => `${failure.source} ${failure.errorCode}`)).toEqual(['viassh INVALID_INPUT', 'leaky INVALID_INPUT'])
    expect(JSON.stringify(run.output)).not.toContain('hunter2')
    expect(run.output.result.added).toBe(1)
  })

  test('a second sync of the same workspace while one runs is refused with a retryable CONFLICT', async () => {
    const remote = await server.createRepo('company-concurrent', { 'adr/adr-0550-a.md': adr('adr-0550-a', 'A') })
    const workspace = await workspaceWith(config([`    - {name: company, layer: company, url: "${remote.url}"}`]))
    const release = server.hold((_method, url) => url.startsWith('/company-concurrent.git'))
    const first = spawn(process.execPath, [mkBin, 'sync', '--json'], {
      cwd: workspace.root,
      env: { ...process.env, MK_HOME: workspace.mkHome },
      stdio: 'ignore',
    })
    const firstClosed = once(first, 'close')
    await new Promise<void>((resolve) => {
      const onRequest = (line: string): void => {
        if (!line.includes('/company-concurrent.git')) return
        server.events.off('request', onRequest)
        resolve()
      }
      server.events.on('request', onRequest)
    })
    const second = await runMk(['sync', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    release()
    const [code] = (await firstClosed) as [number]
    expect(second.exitCode).toBe(2)
    expect(parseJson(second)).toMatchObject({ success: false, errorCode: 'CONFLICT', retryable: true })
    expect(code).toBe(0)
  })

  test('a corrupt state file is reported and rebuilt', async () => {
    const workspace = await workspaceWith(config(['    - {name: project, layer: project, path: knowledge}']))
    await sync(workspace)
    await writeFile(join(workspace.root, '.mk', 'sync-state.json'), '{"version": 1, "sour')
    const run = await sync(workspace)
    expect(run.exitCode).toBe(0)
    expect(run.output.result).toMatchObject({ added: 1, unchanged: 0 })
    expect(run.stderr).toContain('not valid JSON')
    await rm(join(workspace.root, '.mk'), { recursive: true })
  })
})

describe('mk sync with credentials', () => {
  let secured: GitServer
  beforeAll(async () => {
    secured = await startGitServer({ token: 's3cret-token' })
  })
  afterAll(async () => {
    await secured.close()
  })

  test('a token from the environment is sent, a missing or wrong one is UNAUTHORIZED naming the source, and none is written to disk', async () => {
    const remote = await secured.createRepo('private', { 'adr/adr-0600-a.md': adr('adr-0600-a', 'Private') })
    const workspace = await workspaceWith(config([`    - {name: acme, layer: company, url: "${remote.url}", tokenEnv: ACME_TOKEN}`]))

    const missing = await sync(workspace, [], { ACME_TOKEN: undefined })
    expect(missing.exitCode).toBe(2)
    expect(missing.output.result.failures[0]).toMatchObject({ source: 'acme', errorCode: 'UNAUTHORIZED', retryable: false })
    expect(missing.output.result.failures[0]?.message).toContain('source "acme"')
    expect(missing.output.result.failures[0]?.hint).toContain('export ACME_TOKEN=')

    const wrong = await sync(workspace, [], { ACME_TOKEN: 'not-the-token' })
    expect(wrong.output.result.failures[0]).toMatchObject({ source: 'acme', errorCode: 'UNAUTHORIZED' })
    expect(wrong.output.result.failures[0]?.message).toContain('HTTP 403')
    expect(JSON.stringify(wrong.output)).not.toContain('not-the-token')

    const good = await sync(workspace, [], { ACME_TOKEN: 's3cret-token' })
    expect(good.exitCode).toBe(0)
    expect(good.output.result.added).toBe(1)
    const onDisk = await Promise.all(
      [join(workspace.mkHome, 'sources', 'acme', '.git', 'config'), join(workspace.root, '.mk', 'sync-state.json')].map((file) => readFile(file, 'utf8')),
    )
    for (const text of onDisk) expect(text).not.toContain('s3cret-token')
  })
})

interface StatusOutput {
  healthy: boolean
  problems: string[]
  lastSyncAt: string | null
  timeSinceSync: string
  failedItems: { source: string; path: string; message: string }[]
  stats: { totalSyncs: number; totalItemsSynced: number; avgSyncDurationMs: number }
  sources: {
    name: string
    commit: string | null
    lastSyncAt: string | null
    error: { errorCode: string; retryable: boolean } | null
    remote: { reachable: boolean; behind: boolean; error: { errorCode: string; retryable: boolean } | null } | null
  }[]
}

describe('mk sync status', () => {
  test('reports honestly: healthy after a sync, behind when the remote moves, unhealthy when the remote goes away', async () => {
    const own = await startGitServer()
    const remote = await own.createRepo('company', { 'adr/adr-0700-a.md': adr('adr-0700-a', 'A'), 'adr/adr-0701-bad.md': '---\ntitle: [unclosed\n---\n' })
    const workspace = await workspaceWith(
      config(['    - {name: project, layer: project, path: knowledge}', `    - {name: company, layer: company, url: "${remote.url}"}`]),
    )
    const status = async (args: string[] = []): Promise<{ output: StatusOutput; exitCode: number; stdout: string }> => {
      const run = await runMk(['sync', 'status', ...args], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
      return { output: args.includes('--json') ? parseJson<StatusOutput>(run) : ({} as StatusOutput), exitCode: run.exitCode, stdout: run.stdout }
    }

    const never = await status(['--json', '--offline'])
    expect(never.output).toMatchObject({ healthy: false, lastSyncAt: null, timeSinceSync: 'never', stats: { totalSyncs: 0 } })

    const first = await sync(workspace)
    expect(first.output.result.failures).toEqual([expect.objectContaining({ source: 'company', path: 'adr/adr-0701-bad.md', errorCode: 'INVALID_INPUT' })])
    await remote.commit({ 'adr/adr-0701-bad.md': adr('adr-0701-bad', 'Fixed') })
    const withBad = await status(['--json'])
    expect(withBad.output.failedItems).toEqual([expect.objectContaining({ source: 'company', path: 'adr/adr-0701-bad.md' })])
    expect(withBad.output.sources.find((source) => source.name === 'company')?.remote).toMatchObject({ reachable: true, behind: true })

    await sync(workspace)
    const healthy = await status(['--json'])
    expect(healthy.exitCode).toBe(0)
    expect(healthy.output).toMatchObject({
      healthy: true,
      problems: [],
      failedItems: [],
      timeSinceSync: 'just now',
      stats: { totalSyncs: 2, totalItemsSynced: 4 },
    })
    expect(healthy.output.sources.find((source) => source.name === 'company')).toMatchObject({
      commit: await remote.head(),
      error: null,
      remote: { reachable: true, behind: false },
    })

    await own.close()
    const gone = await status(['--json'])
    expect(gone.exitCode).toBe(1)
    expect(gone.output.healthy).toBe(false)
    expect(gone.output.sources.find((source) => source.name === 'company')?.remote).toMatchObject({
      reachable: false,
      error: { errorCode: 'PROVIDER_ERROR', retryable: true },
    })
    expect(gone.output.problems.join('\n')).toContain('cannot reach')

    const failed = await sync(workspace)
    expect(failed.output.result.failures[0]).toMatchObject({ source: 'company', retryable: true })
    const listed = parseJson<{ items: { id: string }[] }>(
      await runMk(['knowledge', 'list', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } }),
    )
    expect(listed.items.map((item) => item.id)).toContain('adr-0700-a')

    const offline = await status(['--offline', '--json'])
    expect(offline.output.sources.find((source) => source.name === 'company')?.error).toMatchObject({ errorCode: 'PROVIDER_ERROR', retryable: true })
    const human = await status()
    expect(human.stdout).toContain('not healthy')
    expect(human.stdout).toContain('unreachable')
  })
})

interface DoctorOutput {
  healthy: boolean
  checks: { name: string; status: string; message: string; fix?: string }[]
}

describe('mk doctor', () => {
  test('finds a missing folder, an edited clone, an unreachable remote and a missing hook, each with its fix', async () => {
    const own = await startGitServer()
    const remote = await own.createRepo('company', { 'adr/adr-0800-a.md': adr('adr-0800-a', 'A') })
    const workspace = await workspaceWith(
      config([
        '    - {name: project, layer: project, path: knowledge}',
        '    - {name: team, layer: team, path: team-knowledge}',
        `    - {name: company, layer: company, url: "${remote.url}", tokenEnv: DOCTOR_TEST_TOKEN}`,
      ]),
    )
    const doctor = async (): Promise<{ output: DoctorOutput; exitCode: number }> => {
      const run = await runMk(['doctor', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, DOCTOR_TEST_TOKEN: undefined } })
      return { output: parseJson<DoctorOutput>(run), exitCode: run.exitCode }
    }
    const check = (output: DoctorOutput, name: string): DoctorOutput['checks'][number] | undefined => output.checks.find((entry) => entry.name === name)

    const before = await doctor()
    expect(before.exitCode).toBe(1)
    expect(check(before.output, 'source team')).toMatchObject({ status: 'fail', fix: expect.stringContaining('mk init') })
    expect(check(before.output, 'source company: clone')).toMatchObject({ status: 'fail', message: 'not cloned yet', fix: 'mk sync' })
    expect(check(before.output, 'source company: token')).toMatchObject({ status: 'warn', fix: 'export DOCTOR_TEST_TOKEN=<a token with read access>' })
    expect(check(before.output, 'source company: reachable')).toMatchObject({ status: 'ok' })
    expect(check(before.output, 'pre-commit hook')).toMatchObject({ status: 'warn' })

    await workspace.write('team-knowledge/policy/p.md', '---\ntitle: P\ntype: policy\n---\n')
    await sync(workspace)
    await writeFile(join(workspace.mkHome, 'sources', 'company', 'adr', 'adr-0800-a.md'), 'edited by hand')
    await gitInit(workspace.root)
    expect((await runMk(['hook', 'install'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })).exitCode).toBe(0)
    const edited = await doctor()
    expect(check(edited.output, 'source team')).toMatchObject({ status: 'ok' })
    expect(check(edited.output, 'source company: clean')).toMatchObject({ status: 'warn', fix: 'mk sync --force' })
    expect(check(edited.output, 'source company: ref')).toMatchObject({ status: 'ok' })
    expect(check(edited.output, 'pre-commit hook')).toMatchObject({ status: 'ok' })
    expect(edited.output.healthy).toBe(true)

    await own.close()
    const gone = await doctor()
    expect(gone.exitCode).toBe(1)
    expect(check(gone.output, 'source company: reachable')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('cannot reach'),
      fix: expect.stringContaining('mk sync'),
    })
  })
})

describe('mk sync and memories', () => {
  test('a memory turns stale when its ADR is superseded upstream, and one whose file was deleted too', async () => {
    const remote = await server.createRepo('company-stale', {
      'adr/adr-0950-queues.md': adr('adr-0950-queues', 'RabbitMQ for queues'),
      'adr/adr-0951-cache.md': adr('adr-0951-cache', 'Redis for caching'),
    })
    const workspace = await workspaceWith(
      [
        config(['    - {name: project, layer: project, path: knowledge}', `    - {name: company, layer: company, url: "${remote.url}"}`]),
        'search:',
        '  embedding:',
        '    provider: none',
      ].join('\n'),
      { 'src/queue.ts': 'export const queue = 1\n' },
    )
    const env = { MK_HOME: workspace.mkHome }
    const mk = (args: string[]) => runMk(args, { cwd: workspace.root, env })
    await sync(workspace)
    const queueMemory = parseJson<{ memoryId: string }>(
      await mk(['memory', 'add', 'Queue workers use RabbMQ with prefetch 10', '--layer', 'project', '--ref', 'adr-0950-queues', '--json']),
    ).memoryId
    const fileMemory = parseJson<{ memoryId: string }>(
      await mk(['memory', 'add', 'The queue module keeps one channel per worker', '--layer', 'project', '--ref', 'src/queue.ts', '--json']),
    ).memoryId
    const search = async (): Promise<Map<string, { stale: boolean; staleReason?: string }>> => {
      const output = parseJson<{ results: { memoryId: string; stale: boolean; staleReason?: string }[] }>(await mk(['memory', 'search', 'queue', '--json']))
      return new Map(output.results.map((result) => [result.memoryId, result]))
    }
    const before = await search()
    expect(before.get(queueMemory)).toMatchObject({ stale: false })
    expect(before.get(fileMemory)).toMatchObject({ stale: false })

    await remote.commit({
      'adr/adr-0950-queues.md': adr('adr-0950-queues', 'RabbitMQ for queues').replace(
        'status: accepted',
        'status: superseded\nsuperseded_by: [adr-0952-kafka]',
      ),
      'adr/adr-0952-kafka.md': adr('adr-0952-kafka', 'Kafka for queues', ['supersedes: [adr-0950-queues]']),
    })
    const synced = await sync(workspace)
    expect(synced.exitCode).toBe(0)
    expect(synced.output.result).toMatchObject({ added: 1, updated: 1, reindexed: 2 })
    expect((synced.output.result as unknown as { staleMemories: unknown[] }).staleMemories).toEqual([
      { memoryId: queueMemory, layer: 'project', reason: 'refers to adr-0950-queues, which is superseded' },
    ])
    const human = await mk(['sync'])
    expect(human.stdout).not.toContain('stale')

    await rm(join(workspace.root, 'src', 'queue.ts'))
    const after = await search()
    expect(after.get(queueMemory)).toMatchObject({ stale: true, staleReason: 'refers to adr-0950-queues, which is superseded' })
    expect(after.get(fileMemory)).toMatchObject({ stale: true, staleReason: 'refers to src/queue.ts, which no longer exists in the workspace' })

    const query = parseJson<{ items: { id: string }[] }>(await mk(['knowledge', 'query', 'queues', '--json']))
    expect(query.items.map((item) => item.id)).toEqual(['adr-0952-kafka'])
  })
})
