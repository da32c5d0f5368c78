import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../../../src/config/workspace.js'
import { openIndex, type SearchIndex } from '../../../../src/search/search-index.js'
import type { IndexDocument } from '../../../../src/search/types.js'
import { inTenant, openPool } from '../../../../src/stores/postgres/connection.js'
import { PostgresDocumentIndex } from '../../../../src/stores/postgres/document-index.js'
import { removeDocuments, setStatuses, upsertDocuments } from '../../../../src/stores/postgres/documents.js'
import { migrate, migrations } from '../../../../src/stores/postgres/migrations.js'
import { TenantScope } from '../../../../src/stores/postgres/place.js'
import { ReplicaVectors } from '../../../../src/stores/postgres/vectors.js'
import { noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()

const doc = (n: number, content: string): IndexDocument => ({
  id: `mem_${String(n).padStart(26, '0')}`,
  kind: 'memory',
  layer: 'project',
  content,
  tags: [],
  source: 'project',
  updatedAt: n,
})

// "call" and "on" apart, together, and a phrase across a repeated word: what a phrase match must tell apart.
const texts = [
  'Call the person on duty before the release',
  'The on call rotation changes every Monday',
  'Whoever is on call answers pages, and on call means awake',
  'Pages go to the release manager first',
  'Call me later, I am on the train',
  'The release train leaves on Tuesday',
]

/** Every word each document's text vector holds, as the kept words must say it. */
const fromTextVectors = `SELECT d.scope, e.lexeme, d.n, coalesce(array_length(e.positions, 1), 1) AS tf, d.length, e.positions::smallint[] AS positions
  FROM mk_documents d, unnest(d.tsv) e ORDER BY 1, 2, 3`
const kept = 'SELECT scope, lexeme, n, tf, length, positions FROM mk_document_terms ORDER BY 1, 2, 3'

describe.skipIf(noPostgres !== undefined)('the words kept per document for BM25', () => {
  let base: string
  let pools: Pool[] = []
  const workspace = {} as Workspace
  const open = async (): Promise<Pool> => {
    const pool = await openPool({ url: postgres.cluster().createDatabase(), poolSize: 2 })
    pools.push(pool)
    return pool
  }
  /** A migrated database holding the texts in tenant acme's default scope. */
  const migratedWithTexts = async (): Promise<{ pool: Pool; place: TenantScope }> => {
    const pool = await open()
    await migrate(pool)
    const place = new TenantScope(async () => pool, 'acme', 'default', workspace)
    await place.run((client) =>
      upsertDocuments(
        client,
        'default',
        texts.map((text, n) => doc(n, text)),
      ),
    )
    return { pool, place }
  }
  const rows = (pool: Pool, sql: string) => inTenant(pool, 'acme', async (client) => (await client.query(sql)).rows)

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-pg-terms-'))
  })
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()))
    pools = []
    await rm(base, { recursive: true, force: true })
  })

  it('follows every add, rewrite, tier change and removal in the same transaction', async () => {
    const { pool, place } = await migratedWithTexts()
    await place.run(async (client) => {
      await upsertDocuments(client, 'default', [doc(1, 'The pages moved to Wednesday'), doc(2, texts[2] ?? '')])
      await setStatuses(client, 'default', [{ id: doc(3, '').id, status: 'archive' }])
      await removeDocuments(client, 'default', [doc(4, '').id])
    })
    await place.run((client) => upsertDocuments(client, 'default', [doc(7, 'Call the release manager')]))
    // Another tenant's words are its own.
    await inTenant(pool, 'globex', (client) => upsertDocuments(client, 'default', [doc(9, 'Globex calls on Fridays')]))
    const words = await rows(pool, kept)
    expect(words).toEqual(await rows(pool, fromTextVectors))
    // The rewritten document's old words are gone, the removed document's too.
    expect(words.some((row) => row.lexeme === 'rotat' || row.lexeme === 'later')).toBe(false)
    expect(words.some((row) => row.lexeme === 'globex')).toBe(false)
  })

  it('is filled from the documents a database held before migration 4', async () => {
    const pool = await open()
    await pool.query('CREATE TABLE mk_schema_versions (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    for (const migration of migrations.filter((step) => step.version <= 3)) {
      await pool.query(migration.sql)
      await pool.query('INSERT INTO mk_schema_versions (version, name) VALUES ($1, $2)', [migration.version, migration.name])
    }
    for (const tenant of ['acme', 'globex'])
      await inTenant(pool, tenant, (client) =>
        upsertDocuments(
          client,
          'default',
          texts.map((text, n) => doc(n, text)),
        ),
      )
    expect((await migrate(pool)).applied).toEqual(migrations.filter((step) => step.version > 3).map((step) => step.version))
    const words = await rows(pool, kept)
    expect(words.length).toBeGreaterThan(30)
    expect(words).toEqual(await rows(pool, fromTextVectors))
    // And what was there is found by its words.
    const place = new TenantScope(async () => pool, 'acme', 'default', workspace)
    const vectors = new ReplicaVectors(async () => pool)
    try {
      const hits = await new PostgresDocumentIndex(place, vectors, undefined).search({ text: 'release train', mode: 'fulltext', limit: 3 })
      expect(hits[0]?.id).toBe(doc(5, '').id)
    } finally {
      await vectors.close()
    }
  })

  // FTS5 matches "on call" only where the two words stand together; how many documents hold the
  // phrase weighs the query's group, so a count of documents holding both words apart changes scores.
  it('scores full text as the SQLite index does, phrases matched only where their words stand together', async () => {
    const { pool, place } = await migratedWithTexts()
    const sqlite: SearchIndex = openIndex(join(base, 'index.db'))
    sqlite.upsert(texts.map((text, n) => doc(n, text)))
    const vectors = new ReplicaVectors(async () => pool)
    const index = new PostgresDocumentIndex(place, vectors, undefined)
    const scored = async (searched: Pick<SearchIndex, 'search'>, text: string) =>
      (await searched.search({ text, mode: 'fulltext', limit: 10 })).map((hit) => ({ id: hit.id, score: Number(hit.score.toFixed(6)) }))
    try {
      for (const question of ['who is on call', 'when does the on-call rotation change', 'release train', 'call the release manager'])
        expect(await scored(index, question), question).toEqual(await scored(sqlite, question))
    } finally {
      sqlite.close()
      await vectors.close()
    }
  })
})
