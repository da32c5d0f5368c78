import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { benchMemoryDocument, benchQueries } from '../../../../scripts/bench/mcp-search.js'
import type { Workspace } from '../../../../src/config/workspace.js'
import { openIndex, type SearchIndex } from '../../../../src/search/search-index.js'
import type { SearchMode } from '../../../../src/search/types.js'
import { openPool } from '../../../../src/stores/postgres/connection.js'
import { PostgresDocumentIndex } from '../../../../src/stores/postgres/document-index.js'
import { upsertDocuments } from '../../../../src/stores/postgres/documents.js'
import { migrate } from '../../../../src/stores/postgres/migrations.js'
import { replicaScope } from '../../../../src/stores/postgres/place.js'
import { ReplicaVectors } from '../../../../src/stores/postgres/vectors.js'
import { noPostgres, throwawayCluster } from '../../../helpers/postgres.js'
import { wordEmbedder } from '../../../helpers/word-embedder.js'

const postgres = throwawayCluster()

/** The serve-postgres bench's memories (their texts and tags) and its four questions. */
const memories = 300
const doc = benchMemoryDocument

// Issue 31: "Same ranking: the 4 bench queries return the same 20 hits and scores to 6 digits", on both stores.
describe.skipIf(noPostgres !== undefined)("the bench's questions on PostgreSQL and on the file store's index", () => {
  let base: string
  let sqlite: SearchIndex
  let pool: Pool
  let vectors: ReplicaVectors
  let index: PostgresDocumentIndex
  const embedder = wordEmbedder()

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-pg-bench-ranking-'))
    const documents = Array.from({ length: memories }, (_, n) => doc(n))
    sqlite = openIndex(join(base, 'index.db'), { embedder })
    sqlite.upsert(documents)
    await sqlite.embedPending()
    pool = await openPool({ url: postgres.cluster().createDatabase(), poolSize: 4 })
    await migrate(pool)
    vectors = new ReplicaVectors(async () => pool)
    const place = replicaScope({ pool: async () => pool, vectors: vectors }, 'bench', 'default', {} as Workspace)
    index = new PostgresDocumentIndex(place, vectors, embedder)
    await place.run((client) => upsertDocuments(client, 'default', documents))
    await index.embedPending()
  })
  afterAll(async () => {
    sqlite.close()
    await vectors.close()
    await pool.end()
    await rm(base, { recursive: true, force: true })
  })

  const top20 = async (searched: Pick<SearchIndex, 'search'>, text: string, mode: SearchMode) =>
    (await searched.search({ text, mode, limit: 20, filters: { kind: 'memory', consumer: { agentId: undefined, teamId: undefined } } })).map((hit) => ({
      id: hit.id,
      score: hit.score,
    }))

  // To 6 digits: within 1e-6. SQLite's cosine is float32 and PostgreSQL's replica compares in float32 too, but the
  // sums may differ in the eighth digit, and rounding both to six places can then differ by one in the last.
  it.each(['fulltext', 'vector', 'hybrid'] as const)('%s: the same 20 hits in the same order, scores equal to 6 digits', async (mode) => {
    for (const question of benchQueries) {
      const theirs = await top20(sqlite, question, mode)
      const mine = await top20(index, question, mode)
      expect(theirs, question).toHaveLength(20)
      expect(
        mine.map((hit) => hit.id),
        `${mode}: ${question}`,
      ).toEqual(theirs.map((hit) => hit.id))
      mine.forEach((hit, position) => expect(Math.abs(hit.score - (theirs[position]?.score ?? 0)), `${mode}: ${question}`).toBeLessThanOrEqual(1e-6))
    }
  })
})
