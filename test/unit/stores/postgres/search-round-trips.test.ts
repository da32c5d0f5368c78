import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../../src/config/load.js'
import type { Workspace } from '../../../../src/config/workspace.js'
import { visibleFoldersOfLayers } from '../../../../src/memory/locations.js'
import { searchMemories } from '../../../../src/recall/search-memories.js'
import type { IndexDocument } from '../../../../src/search/types.js'
import { inTenant } from '../../../../src/stores/postgres/connection.js'
import { closeDatabases, postgresDatabase } from '../../../../src/stores/postgres/databases.js'
import { PostgresDocumentIndex } from '../../../../src/stores/postgres/document-index.js'
import { upsertDocuments } from '../../../../src/stores/postgres/documents.js'
import { replicaScope, TenantScope } from '../../../../src/stores/postgres/place.js'
import { openPostgresStore } from '../../../../src/stores/postgres/postgres-store.js'
import { ReplicaVectors } from '../../../../src/stores/postgres/vectors.js'
import type { Store } from '../../../../src/stores/store.js'
import { Resources } from '../../../../src/tools/context.js'
import { memoryRecord } from '../../../helpers/memory-record.js'
import { countQueries, noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()

describe.skipIf(noPostgres !== undefined)('the round trips of a memory search on PostgreSQL', () => {
  let base: string
  let url: string
  let workspace: Workspace
  let store: Store
  const resources = new Resources()

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-pg-trips-'))
    const root = join(base, 'ws')
    await mkdir(join(root, 'knowledge'), { recursive: true })
    await writeFile(join(root, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
    workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: join(base, 'home') } })
    url = postgres.cluster().createDatabase()
    store = openPostgresStore(postgresDatabase(url, 4), { workspace, resources, tenantId: 'acme', scope: 'default' })
  })
  afterAll(async () => {
    await resources.closeAll()
    await closeDatabases()
    await rm(base, { recursive: true, force: true })
  })

  const search = (query: string) =>
    searchMemories(
      {
        query,
        layers: ['project'],
        tiers: ['hot', 'warm'],
        tags: undefined,
        threshold: 0,
        limit: 5,
        candidates: 50,
        identity: { agentId: undefined, sessionId: undefined },
        consumer: { agentId: undefined, teamId: undefined },
      },
      { workspace, store, warn: () => undefined, progress: () => undefined, signal: new AbortController().signal },
    )

  // It was thirteen round trips in five transactions with vectors, ten in three with full text alone
  // (BEGIN and COMMIT each a round trip, and every statement with parameters one more).
  it('sends three queries for a warm search that finds memories: the ranking, the page shown, its refs', async () => {
    const nobody = { agentId: undefined, sessionId: undefined }
    const [folder] = visibleFoldersOfLayers(workspace, nobody, ['project'])
    if (folder === undefined) throw new Error('no project folder')
    for (const content of ['Deploys need two approvals', 'The deploy script needs the VPN', 'Releases are cut on Tuesday'])
      await store.memories.add(folder, memoryRecord(folder, content), { identity: nobody, warn: () => undefined })
    expect((await search('how do I deploy')).results).toHaveLength(2)
    const queries = countQueries(await postgresDatabase(url, 4).pool())
    try {
      expect((await search('deploy approvals')).results.length).toBeGreaterThan(0)
    } finally {
      queries.stop()
    }
    expect(queries.sent).toHaveLength(3)
    for (const sent of queries.sent) expect(sent).toMatch(/^BEGIN READ ONLY; SELECT set_config\('mk\.tenant', 'acme', true\);\n/)
  })

  // They were read one after the other: three waits for the database a search, now two.
  it('reads the page shown and its refs at once, after the ranking', async () => {
    const pool = await postgresDatabase(url, 4).pool()
    let busy = 0
    let mostAtOnce = 0
    const acquired = (): void => {
      busy += 1
      mostAtOnce = Math.max(mostAtOnce, busy)
    }
    const released = (): void => {
      busy -= 1
    }
    expect((await search('deploy approvals')).results.length).toBeGreaterThan(0)
    pool.on('acquire', acquired).on('release', released)
    try {
      expect((await search('deploy approvals')).results.length).toBeGreaterThan(0)
    } finally {
      pool.removeListener('acquire', acquired).removeListener('release', released)
    }
    expect(mostAtOnce).toBe(2)
  })
})

const doc = (text: string, n: number): IndexDocument => ({
  id: `doc_${String(n).padStart(4, '0')}`,
  kind: 'memory',
  layer: 'project',
  content: text,
  tags: [],
  source: 'project',
  updatedAt: n,
})

describe.skipIf(noPostgres !== undefined)("a replica's count of a scope behind another replica's write", () => {
  let pool: Pool
  let vectors: ReplicaVectors
  let place: TenantScope

  beforeAll(async () => {
    pool = await postgresDatabase(postgres.cluster().createDatabase(), 4).pool()
    vectors = new ReplicaVectors(async () => pool)
    place = replicaScope({ pool: async () => pool, vectors: vectors }, 'stale', 'default', {} as Workspace)
  })
  afterAll(() => vectors.close())

  it('sees its own write at once: the count it held is dropped at commit, not when the notification comes', async () => {
    expect((await vectors.corpus(place)).docs).toBe(0)
    await place.run((client) => upsertDocuments(client, 'default', [doc('The deploy script needs the VPN', 1), doc('Deploys need two approvals', 2)]))
    expect(await vectors.corpus(place)).toMatchObject({ docs: 2, pending: 2 })
  })

  // Another replica's insert whose notification has not arrived: rows copied inside the database announce nothing.
  // The documents are written to another scope (its announcement drops nothing of this one) and copied in.
  it('ranks, never fails, when more documents hold a word than the scope had when it was counted', async () => {
    const lagging = new TenantScope(async () => pool, 'lag', 'default', {} as Workspace)
    const laggingIndex = new PostgresDocumentIndex(lagging, vectors, undefined)
    await inTenant(pool, 'lag', (client) => upsertDocuments(client, 'seed', [doc('The deploy script needs the VPN', 1), doc('Deploys need two approvals', 2)]))
    const copy = (suffix: string) =>
      inTenant(pool, 'lag', (client) =>
        client.query(
          `INSERT INTO mk_documents (scope, id, kind, layer, title, content, tags, source, path, updated_at, expires_at, type, status, meta, dedup_key, text_hash, tsv, length)
           SELECT 'default', id || ${suffix}, kind, layer, title, content, tags, source, path, updated_at, expires_at, type, status, meta, dedup_key, text_hash, tsv, length
           FROM mk_documents, generate_series(1, 20) g WHERE scope = 'seed' AND (${suffix} <> '' OR g = 1)`,
        ),
      )
    await copy("''")
    expect((await vectors.corpus(lagging)).docs).toBe(2)
    await copy("'-' || g")
    expect((await vectors.corpus(lagging)).docs).toBe(2)
    const hits = await laggingIndex.search({
      text: 'deploy',
      mode: 'fulltext',
      limit: 5,
      filters: { kind: 'memory', consumer: { agentId: undefined, teamId: undefined } },
    })
    expect(hits).toHaveLength(5)
    for (const hit of hits) expect(Number.isFinite(hit.score) && hit.score > 0, JSON.stringify(hit)).toBe(true)
  })
})
