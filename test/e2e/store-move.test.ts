import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../src/config/load.js'
import type { Workspace } from '../../src/config/workspace.js'
import { folderOfKey, type MemoryFolder } from '../../src/memory/locations.js'
import type { MemoryRecord } from '../../src/memory/model.js'
import type { StoredMemory } from '../../src/memory/store.js'
import { openFilesStore } from '../../src/stores/files/files-store.js'
import { closeDatabases, postgresDatabase } from '../../src/stores/postgres/databases.js'
import { openPostgresStore } from '../../src/stores/postgres/postgres-store.js'
import type { Store } from '../../src/stores/store.js'
import { Resources } from '../../src/tools/context.js'
import { expectCleanError, parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { memoryRecord } from '../helpers/memory-record.js'
import { noPostgres, throwawayCluster } from '../helpers/postgres.js'
import { startServe } from '../helpers/serve.js'

/* Spawns the built `mk store export` / `mk store import` (run `npm run build` first) on a tenant built with the store's own code. */

const postgres = throwawayCluster()
const author = { name: 'Store Move', email: 'store-move@example.com' }
const config = 'search:\n  embedding:\n    provider: none\n'

function folder(workspace: Workspace, key: string): MemoryFolder {
  const found = folderOfKey(workspace, key)
  if (found === undefined) throw new Error(`no folder ${key}`)
  return found
}

function record(where: MemoryFolder, content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return memoryRecord(where, content, { tags: [`t${content.length % 5}`], metadata: { n: content.length }, ...extra })
}

/**
 * A tenant of a `mk serve --data` folder with non-trivial history: 300 memories over five
 * folders, 40 rewritten, 15 moved to other tiers, 25 deleted; activations, relations, receipts
 * and rule outcomes.
 */
async function buildTenant(dataDir: string, tenant: string): Promise<void> {
  const root = join(dataDir, 'tenants', tenant, 'workspace')
  const mkHome = join(dataDir, 'tenants', tenant, 'home')
  await mkdir(root, { recursive: true })
  await writeFile(join(root, '.mkrc'), config)
  const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: mkHome } })
  const resources = new Resources()
  const store = openFilesStore({ workspace, resources })
  const write = { author, warn: () => undefined }
  const plan: [string, number][] = [
    ['project', 180],
    ['user', 50],
    ['agent/alice', 30],
    ['user/alice', 20],
    ['session/alice/s1', 20],
  ]
  const added = new Map<string, StoredMemory[]>()
  for (const [key, count] of plan) {
    const where = folder(workspace, key)
    const identity = {
      agentId: key.includes('alice') ? 'alice' : undefined,
      sessionId: key.endsWith('s1') ? 's1' : undefined,
      perAgent: key === 'user/alice' || key === 'session/alice/s1',
    }
    const list: StoredMemory[] = []
    for (let n = 0; n < count; n++) {
      const outcome = await store.memories.add(where, record(where, `${key} memory ${n}: deploys need ${n} approvals from team ${n % 7}`), {
        ...write,
        identity,
      })
      if (outcome.deduplicated) throw new Error('unexpected duplicate')
      list.push(outcome.stored)
    }
    added.set(key, list)
  }
  for (const key of ['project', 'user']) {
    const list = added.get(key) ?? []
    const edited = list.slice(0, 20).map((stored) => ({ ...stored.record, content: `${stored.record.content} (edited)`, updated: new Date().toISOString() }))
    await store.memories.rewrite(folder(workspace, key), edited.slice(0, 10), `edit ${key} a`, write)
    await store.memories.rewrite(folder(workspace, key), edited.slice(10), `edit ${key} b`, write)
  }
  const user = added.get('user') ?? []
  await store.memories.retier(
    folder(workspace, 'user'),
    user.slice(20, 35).map((stored, n) => ({ id: stored.record.id, tier: n % 2 === 0 ? 'warm' : 'cold' })),
    'decay',
    write,
  )
  for (const key of ['project', 'agent/alice']) {
    for (const stored of (added.get(key) ?? []).slice(-13)) await store.memories.delete(stored, write)
  }
  const project = added.get('project') ?? []
  await store.activations.append(
    folder(workspace, 'project'),
    project
      .slice(30, 50)
      .map((stored, n) => ({ id: stored.record.id, at: new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString(), event: 'activate', outcome: 'positive' })),
  )
  await store.activations.append(folder(workspace, 'user'), [
    { id: user[0]?.record.id ?? '', at: '2026-11-02T00:00:00.000Z', event: 'rehydrate', reason: 'asked' },
  ])
  await store.graph.appendRelations(
    folder(workspace, 'project'),
    [1, 2, 3, 4, 5].map((n) => ({ from: `service-${n}`, to: `team-${n}`, relationType: 'owned_by' })),
  )
  for (const query of ['who approves deploys', 'which team owns service 3']) {
    await store.receipts.append(await store.receipts.receiptFor(query, 'alice', [{ id: project[0]?.record.id ?? '', score: 0.5 }]))
  }
  const event = (rule: string, outcome: 'positive' | 'negative') => ({
    rule_id: rule,
    at: new Date().toISOString(),
    outcome,
    tool: 'memory_add',
    target: 'tool' as const,
    input_sha256: 'a'.repeat(64),
    context_sha256: 'b'.repeat(64),
  })
  await store.outcomes.record([event('prefer-pnpm', 'positive'), event('two-approvals', 'negative')], author)
  await store.outcomes.record([event('prefer-pnpm', 'negative')], author)
  await resources.closeAll()
}

type Line = Record<string, unknown>

async function lines(file: string): Promise<{ header: Line; items: Line[] }> {
  const parsed = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line)
  expect(parsed.at(-1)).toMatchObject({ kind: 'end' })
  return { header: parsed[0] ?? {}, items: parsed.slice(1, -1) }
}

const count = (items: Line[], kind: string): number => items.filter((item) => item.kind === kind).length

describe.skipIf(noPostgres !== undefined)('mk store export / import between files and PostgreSQL', () => {
  let base: string
  let dataA: string
  let dataB: string
  let url: string
  let urlWithPassword: string
  const mk = (args: string[]): Promise<MkRun> => runMk(args, { cwd: base, env: { MK_HOME: join(base, 'cli-home') } })
  const file = (name: string): string => join(base, name)

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-store-move-'))
    await writeFile(join(base, '.mkrc'), config)
    dataA = join(base, 'data-a')
    dataB = join(base, 'data-b')
    await buildTenant(dataA, 'acme')
    url = postgres.cluster().createDatabase()
    // Trust authentication ignores it: the password is there to prove no output ever shows it.
    urlWithPassword = url.replace(/^postgres:\/\/([^@]+)@/, 'postgres://$1:hunter2pw@')
  }, 300_000)
  afterAll(async () => {
    await closeDatabases()
    await rm(base, { recursive: true, force: true })
  })

  const exported = async (from: string, tenant: string, name: string): Promise<{ header: Line; items: Line[] }> => {
    const run = await mk(['store', 'export', '--from', from, '--tenant', tenant, '--out', file(name), '--json'])
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout + run.stderr).not.toContain('hunter2pw')
    return lines(file(name))
  }

  it('moves a tenant files → PostgreSQL → files with every memory, history entry (commit ids, times) and ledger row', async () => {
    const original = await exported(dataA, 'acme', 'files.jsonl')
    expect(original.header).toMatchObject({ format: 'mk-store-transfer', version: 1, tenant: 'acme', from: 'files' })
    expect(count(original.items, 'memory')).toBe(300 - 26)
    expect(count(original.items, 'tier')).toBe(15)
    // 120 private adds, 20 private rewrites, 15 retiers, 26 deletions, 2 outcome commits (project adds and rewrites are the person's to commit).
    expect(count(original.items, 'history')).toBe(120 + 20 + 15 + 26 + 2)
    expect(original.items.filter((item) => item.op === 'delete').every((item) => typeof item.text === 'string')).toBe(true)
    expect(count(original.items, 'activation')).toBe(21)
    expect(count(original.items, 'relation')).toBe(5)
    expect(count(original.items, 'receipt')).toBe(2)
    expect(count(original.items, 'receipt_salt')).toBe(1)
    expect(count(original.items, 'outcome')).toBe(3)

    const imported = await mk(['store', 'import', '--to', urlWithPassword, '--tenant', 'acme', file('files.jsonl'), '--json'])
    expect(imported.exitCode, imported.stderr).toBe(0)
    expect(imported.stdout + imported.stderr).not.toContain('hunter2pw')
    expect(parseJson(imported)).toMatchObject({ tenant: 'acme', kind: 'postgres', counts: { memory: 274, history: 183, outcome: 3 } })

    const inDatabase = await exported(url, 'acme', 'postgres.jsonl')
    expect(inDatabase.header).toMatchObject({ from: 'postgres', tenant: 'acme' })
    expect(inDatabase.items).toEqual(original.items)

    const back = await mk(['store', 'import', '--to', dataB, '--tenant', 'acme', file('postgres.jsonl'), '--json'])
    expect(back.exitCode, back.stderr).toBe(0)
    const inFiles = await exported(dataB, 'acme', 'files-again.jsonl')
    expect(inFiles.items).toEqual(original.items)
    // The receipts' hashing key is its owner's only, as mk makes it.
    expect((await stat(join(dataB, 'tenants', 'acme', 'workspace', '.mk', 'receipts-salt'))).mode & 0o777).toBe(0o600)
  }, 300_000)

  it('keeps what was moved usable: the database serves the memories and restores one deleted before the move', async () => {
    const root = join(dataA, 'tenants', 'acme', 'workspace')
    const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: join(dataA, 'tenants', 'acme', 'home') } })
    const resources = new Resources()
    const store: Store = openPostgresStore(postgresDatabase(url, 2), { workspace, resources, tenantId: 'acme', scope: 'default' })
    const { items } = await lines(file('files.jsonl'))
    const deleted = items.find((item) => item.op === 'delete' && item.folder === 'project')
    const kept = items.find((item) => item.kind === 'memory' && item.folder === 'project')
    const keptId = /^id: (\S+)$/m.exec(String(kept?.text))?.[1] ?? ''
    const nobody = { agentId: undefined, sessionId: undefined }
    expect((await store.memories.find(nobody, keptId)).record.content).toContain('project memory')
    const restored = await store.memories.restore(nobody, String(deleted?.memory_id), { author, warn: () => undefined })
    expect(restored.record.id).toBe(deleted?.memory_id)
    await resources.closeAll()

    // The files store, brought back from the database, restores from the history it brought along.
    const filesRoot = join(dataB, 'tenants', 'acme', 'workspace')
    const filesWorkspace = await loadWorkspace({ cwd: filesRoot, env: { MK_HOME: join(dataB, 'tenants', 'acme', 'home') } })
    const filesResources = new Resources()
    const files = openFilesStore({ workspace: filesWorkspace, resources: filesResources })
    const again = await files.memories.restore(nobody, String(deleted?.memory_id), { author, warn: () => undefined })
    expect(again.record.content).toBe(restored.record.content)
    await filesResources.closeAll()

    // mk serve on the database finds what was imported (its search documents were written with it).
    const server = await startServe({ cwd: base, args: ['--data', dataA, '--store', url], env: { MK_HOME: join(base, 'cli-home') } })
    try {
      const search = await server.post('/v1/tools/memory_search', { query: 'project memory 7: deploys need 7 approvals', limit: 20 }, { 'x-tenant-id': 'acme' })
      expect(search.status, JSON.stringify(search.body)).toBe(200)
      expect((search.body.results as { memoryId: string }[]).map((result) => result.memoryId)).toContain(
        /^id: (\S+)$/m.exec(String(items.find((item) => item.kind === 'memory' && String(item.text).includes('project memory 7:'))?.text))?.[1],
      )
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('copies a tenant PostgreSQL → PostgreSQL, and importing tenant beta never touches tenant acme', async () => {
    const before = await exported(url, 'acme', 'acme-before.jsonl')
    const copied = await mk(['store', 'import', '--to', url, '--tenant', 'beta', file('postgres.jsonl'), '--json'])
    expect(copied.exitCode, copied.stderr).toBe(0)
    const beta = await exported(url, 'beta', 'beta.jsonl')
    const original = await lines(file('postgres.jsonl'))
    expect(beta.items).toEqual(original.items)
    const after = await exported(url, 'acme', 'acme-after.jsonl')
    expect(after.items).toEqual(before.items)
    // Replacing beta leaves acme as it was too.
    const replaced = await mk(['store', 'import', '--to', url, '--tenant', 'beta', '--replace', file('postgres.jsonl'), '--json'])
    expect(replaced.exitCode, replaced.stderr).toBe(0)
    expect((await exported(url, 'acme', 'acme-last.jsonl')).items).toEqual(before.items)
    expect((await exported(url, 'beta', 'beta-again.jsonl')).items).toEqual(original.items)
  }, 300_000)

  it('refuses a tenant that holds data (CONFLICT, exit 2) on both stores and writes nothing', async () => {
    const before = await exported(url, 'acme', 'acme-conflict.jsonl')
    const intoDatabase = await mk(['store', 'import', '--to', urlWithPassword, '--tenant', 'acme', file('files.jsonl'), '--json'])
    expect(expectCleanError(intoDatabase)).not.toContain('hunter2pw')
    expect(parseJson(intoDatabase)).toMatchObject({ errorCode: 'CONFLICT' })
    expect(intoDatabase.stdout).toMatch(/already holds data.*--replace/s)
    expect((await exported(url, 'acme', 'acme-unchanged.jsonl')).items).toEqual(before.items)

    const filesBefore = await exported(dataB, 'acme', 'files-conflict.jsonl')
    const intoFiles = await mk(['store', 'import', '--to', dataB, '--tenant', 'acme', file('files.jsonl'), '--json'])
    expectCleanError(intoFiles)
    expect(parseJson(intoFiles)).toMatchObject({ errorCode: 'CONFLICT' })
    expect((await exported(dataB, 'acme', 'files-unchanged.jsonl')).items).toEqual(filesBefore.items)
  }, 300_000)

  it('refuses a file of another format version or with a corrupt line, naming the line, and writes nothing', async () => {
    const text = await readFile(file('files.jsonl'), 'utf8')
    const [header = '', ...rest] = text.split('\n')
    await writeFile(file('future.jsonl'), [header.replace('"version":1', '"version":2'), ...rest].join('\n'))
    const future = await mk(['store', 'import', '--to', url, '--tenant', 'gamma', file('future.jsonl'), '--json'])
    expectCleanError(future)
    expect(parseJson(future)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { line: 1 } })
    expect(future.stdout).toContain('format version 2')

    const corrupt = [header, ...rest]
    corrupt[150] = '{"kind":"memory","folder":"project","text":"not a memory'
    await writeFile(file('corrupt.jsonl'), corrupt.join('\n'))
    const broken = await mk(['store', 'import', '--to', url, '--tenant', 'gamma', file('corrupt.jsonl'), '--json'])
    expectCleanError(broken)
    expect(parseJson(broken)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { line: 151 } })

    const cut = text.trim().split('\n').slice(0, -10).join('\n')
    await writeFile(file('cut.jsonl'), `${cut}\n`)
    const truncated = await mk(['store', 'import', '--to', dataB, '--tenant', 'gamma', file('cut.jsonl'), '--json'])
    expectCleanError(truncated)
    expect(parseJson(truncated)).toMatchObject({ errorCode: 'INVALID_INPUT' })

    expect((await exported(url, 'gamma', 'gamma.jsonl')).items).toEqual([])
    const gammaFiles = await mk(['store', 'export', '--from', dataB, '--tenant', 'gamma', '--out', file('gamma-files.jsonl'), '--json'])
    expect(parseJson(gammaFiles)).toMatchObject({ errorCode: 'NOT_FOUND' })
  }, 300_000)

  it('rolls the database back when it refuses a row late in the file: nothing is half-written', async () => {
    const raw = (await readFile(file('files.jsonl'), 'utf8')).trim().split('\n')
    const last = raw.findLastIndex((line) => line.startsWith('{"kind":"memory"'))
    const item = JSON.parse(raw[last] ?? '') as { text: string }
    // A NUL character: a file can hold it, a PostgreSQL text or jsonb value cannot.
    raw[last] = JSON.stringify({ ...item, text: item.text.replace(/\n$/, ' \u0000\n') })
    await writeFile(file('nul.jsonl'), `${raw.join('\n')}\n`)
    const run = await mk(['store', 'import', '--to', url, '--tenant', 'delta', file('nul.jsonl'), '--json'])
    expectCleanError(run)
    expect(parseJson(run)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { line: last + 1, kind: 'memory' } })
    expect(run.stdout).toContain('PostgreSQL refused the memory')
    expect((await exported(url, 'delta', 'delta.jsonl')).items).toEqual([])
  }, 120_000)

  it('moves the workspace mk runs in (tenant default) into PostgreSQL and back into another workspace', async () => {
    for (const args of [['Deploys need two approvals'], ['Project uses pnpm', '--layer', 'project']]) {
      const added = await mk(['memory', 'add', ...args, '--json'])
      expect(added.exitCode, added.stderr).toBe(0)
    }
    const original = await exported('workspace', 'default', 'workspace.jsonl')
    expect(count(original.items, 'memory')).toBe(2)
    expect(count(original.items, 'history')).toBe(1)
    const imported = await mk(['store', 'import', '--to', url, '--tenant', 'solo', file('workspace.jsonl')])
    expect(imported.exitCode, imported.stderr).toBe(0)
    expect(imported.stdout).toMatch(/^mk store import: .* into tenant solo \(scope default\) of postgres:\/\/127\.0\.0\.1:\d+\/mk_\w+: 2 memory, 1 history/)
    expect((await exported(url, 'solo', 'solo.jsonl')).items).toEqual(original.items)

    const other = join(base, 'other')
    await mkdir(other, { recursive: true })
    await writeFile(join(other, '.mkrc'), config)
    const intoWorkspace = await runMk(['store', 'import', '--to', 'workspace', file('solo.jsonl'), '--json'], {
      cwd: other,
      env: { MK_HOME: join(base, 'other-home') },
    })
    expect(intoWorkspace.exitCode, intoWorkspace.stderr).toBe(0)
    const back = await runMk(['store', 'export', '--from', 'workspace', '--out', file('other.jsonl'), '--json'], {
      cwd: other,
      env: { MK_HOME: join(base, 'other-home') },
    })
    expect(back.exitCode, back.stderr).toBe(0)
    expect((await lines(file('other.jsonl'))).items).toEqual(original.items)
    // The files store's index catches up with the imported files by itself.
    const search = await runMk(['memory', 'search', 'two approvals', '--json'], { cwd: other, env: { MK_HOME: join(base, 'other-home') } })
    expect(search.exitCode, search.stderr).toBe(0)
    expect(JSON.stringify(parseJson(search))).toContain('Deploys need two approvals')

    const tenant = await mk(['store', 'export', '--from', 'workspace', '--tenant', 'acme', '--out', file('nope.jsonl'), '--json'])
    expectCleanError(tenant)
    expect(parseJson(tenant)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { field: '--tenant' } })
  }, 300_000)

  it('refuses a URL that does not parse without echoing it', async () => {
    const run = await mk([
      'store',
      'export',
      '--from',
      'postgres://mk:hunter2pw@127.0.0.1:notaport/mk',
      '--tenant',
      'acme',
      '--out',
      file('bad.jsonl'),
      '--json',
    ])
    expectCleanError(run)
    expect(parseJson(run)).toMatchObject({ errorCode: 'INVALID_INPUT', details: { field: '--from' } })
    expect(run.stdout + run.stderr).not.toContain('hunter2pw')
  })
})
