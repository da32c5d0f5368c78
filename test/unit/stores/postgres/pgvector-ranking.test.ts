import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { benchMemoryContent, benchQueries } from '../../../../scripts/bench/mcp-search.js'
import type { Workspace } from '../../../../src/config/workspace.js'
import { openIndex, type SearchIndex } from '../../../../src/search/search-index.js'
import type { IndexDocument, SearchMode } from '../../../../src/search/types.js'
import { dot } from '../../../../src/search/vector-evidence.js'
import { PostgresDocumentIndex } from '../../../../src/stores/postgres/document-index.js'
import { upsertDocuments } from '../../../../src/stores/postgres/documents.js'
import { vectorPath } from '../../../../src/stores/postgres/pgvector.js'
import { replicaScope } from '../../../../src/stores/postgres/place.js'
import { ReplicaVectors } from '../../../../src/stores/postgres/vectors.js'
import { throwawayVectorDatabase, vectorPool } from '../../../helpers/pglite.js'
import { wordEmbedder } from '../../../helpers/word-embedder.js'

// PGlite (PostgreSQL 17 in WebAssembly) is the one PostgreSQL with pgvector installable here: test/helpers/pglite.ts.
const database = throwawayVectorDatabase({ extension: true })

/** The serve-postgres bench's memories (their texts and tags) and its four questions, as bench-ranking.test.ts asks them of the replica-memory path. */
const memories = 300
const doc = (n: number): IndexDocument => ({
  id: `mem_${String(n).padStart(26, '0')}`,
  kind: n % 10 === 9 ? 'knowledge' : 'memory',
  layer: 'project',
  content: benchMemoryContent(n),
  tags: [`t${n % 13}`],
  source: 'project',
  updatedAt: n,
})

// Issue 31: with pgvector the database finds the nearest vectors, and fusion and calibration are the file store's.
describe("the bench's questions on pgvector and on the file store's index", () => {
  let base: string
  let sqlite: SearchIndex
  let pool: Pool
  let vectors: ReplicaVectors
  let index: PostgresDocumentIndex
  let other: PostgresDocumentIndex
  // The bundled model's dimensions: the ones pgvector's index holds.
  const embedder = wordEmbedder({ dimensions: 512 })

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-pgvector-ranking-'))
    const documents = Array.from({ length: memories }, (_, n) => doc(n))
    sqlite = openIndex(join(base, 'index.db'), { embedder })
    sqlite.upsert(documents)
    await sqlite.embedPending()
    pool = await vectorPool(database.database().url)
    vectors = new ReplicaVectors(async () => pool)
    const place = (tenant: string) => replicaScope({ pool: async () => pool, vectors: vectors }, tenant, 'default', {} as Workspace)
    index = new PostgresDocumentIndex(place('bench'), vectors, embedder)
    await place('bench').run((client) => upsertDocuments(client, 'default', documents))
    await index.embedPending()
    // Another tenant's nearer vectors fill the same HNSW index: row-level security must not let them crowd this tenant's out.
    other = new PostgresDocumentIndex(place('other'), vectors, embedder)
    const crowd = Array.from({ length: 400 }, (_, n) => ({ ...doc(n % 40), id: `mem_other_${n}`, content: `${benchQueries[n % 4]} ${n}` }))
    await place('other').run((client) => upsertDocuments(client, 'default', crowd))
    await other.embedPending()
    await pool.query('ANALYZE mk_documents')
  }, 240_000)
  afterAll(async () => {
    sqlite.close()
    await vectors.close()
    await pool.end()
    await rm(base, { recursive: true, force: true })
  })

  const top20 = async (searched: Pick<SearchIndex, 'search'>, text: string, mode: SearchMode, kind?: 'memory') =>
    (await searched.search({ text, mode, limit: 20, filters: { kind, consumer: { agentId: undefined, teamId: undefined } } })).map((hit) => ({
      id: hit.id,
      score: hit.score,
    }))

  it('the database has pgvector with the iterative index scan, and the store takes that path', async () => {
    expect(await vectorPath(pool)).toEqual({ kind: 'pgvector', version: expect.stringMatching(/^0\.(8|9)|^[1-9]/), iterativeScan: true })
  })

  it.each(['vector', 'hybrid', 'fulltext'] as const)('%s: the same 20 hits in the same order, scores equal to 6 digits, no vector held', async (mode) => {
    for (const question of benchQueries) {
      for (const kind of [undefined, 'memory'] as const) {
        const theirs = await top20(sqlite, question, mode, kind)
        const mine = await top20(index, question, mode, kind)
        expect(theirs, question).toHaveLength(20)
        expect(
          mine.map((hit) => hit.id),
          `${mode}: ${question} (${kind ?? 'any kind'})`,
        ).toEqual(theirs.map((hit) => hit.id))
        mine.forEach((hit, position) => expect(Math.abs(hit.score - (theirs[position]?.score ?? 0)), `${mode}: ${question}`).toBeLessThanOrEqual(1e-6))
      }
    }
    // The replica's memory holds no scope's vectors: the database searched them.
    expect(await vectors.size()).toEqual({ scopes: 0, vectors: 0 })
  })

  it('near duplicates are found by the database, as the file store finds them', async () => {
    const text = benchMemoryContent(7)
    const mine = await index.nearDuplicates(text, { kind: 'memory' }, 0.5)
    const [query] = await embedder.embed([text], 'query')
    const stored = await index.vectorsOf(mine.map((hit) => hit.id))
    const cosine = (id: string) => dot(query ?? new Float32Array(), stored.find((vector) => vector.id === id)?.vector ?? new Float32Array())
    expect(mine[0]?.id).toBe(doc(7).id)
    expect(mine.length).toBeGreaterThan(1)
    for (const hit of mine) expect(hit.score, hit.id).toBeCloseTo(cosine(hit.id), 6)
    expect(await vectors.size()).toEqual({ scopes: 0, vectors: 0 })
  })
})
