import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Workspace } from '../../../../src/config/workspace.js'
import { openPool } from '../../../../src/stores/postgres/connection.js'
import { PostgresDocumentIndex } from '../../../../src/stores/postgres/document-index.js'
import { upsertDocuments } from '../../../../src/stores/postgres/documents.js'
import { migrate } from '../../../../src/stores/postgres/migrations.js'
import { replicaScope, TenantScope } from '../../../../src/stores/postgres/place.js'
import { ReplicaVectors } from '../../../../src/stores/postgres/vectors.js'
import { countQueries, noPostgres, throwawayCluster } from '../../../helpers/postgres.js'
import { wordEmbedder } from '../../../helpers/word-embedder.js'
import { projectMemoryDocument } from '../../../helpers/index-document.js'

const postgres = throwawayCluster()

const doc = projectMemoryDocument

interface Replica {
  pool: Pool
  vectors: ReplicaVectors
  place: TenantScope
  index: PostgresDocumentIndex
}

/**
 * mk serve's tool threads each hold a scope's vectors. At 100,000 vectors each thread read them
 * all from the database (seconds of CPU there and in the thread), and a second replica's threads
 * answered no search within 5 s while they read. Two holders named for one database stand for two
 * threads of one process here (a BroadcastChannel reaches both in one thread too); a third, not
 * named, is another replica.
 */
describe.skipIf(noPostgres !== undefined)('the threads of one replica read a scope’s vectors once', () => {
  const embedder = wordEmbedder({ synonyms: {} })
  let replicas: Replica[] = []

  const replica = async (url: string, shareAs: string | undefined): Promise<Replica> => {
    const pool = await openPool({ url, poolSize: 2 })
    const vectors = new ReplicaVectors(async () => pool, shareAs)
    const place = replicaScope({ pool: async () => pool, vectors: vectors }, 'acme', 'default', {} as Workspace)
    return { pool, vectors, place, index: new PostgresDocumentIndex(place, vectors, embedder) }
  }

  let url = ''

  beforeAll(async () => {
    url = postgres.cluster().createDatabase()
    const first = await openPool({ url, poolSize: 1 })
    await migrate(first)
    await first.end()
    replicas = [await replica(url, url), await replica(url, url), await replica(url, undefined)]
    const other = replicas[2] as Replica
    await other.place.run((client) =>
      upsertDocuments(
        client,
        'default',
        Array.from({ length: 40 }, (_, n) => doc(`Release ${n} is cut from the trunk on day ${n % 7}`, n + 1)),
      ),
    )
    await other.index.embedPending()
  })
  afterAll(async () => {
    for (const held of replicas) {
      await held.vectors.close()
      await held.pool.end()
    }
  })

  it('a thread takes what another thread read, sending nothing to the database', async () => {
    const [reader, sibling] = replicas as [Replica, Replica]
    const read = await reader.vectors.of(reader.place)
    expect(read.table.size).toBe(40)
    const queries = countQueries(sibling.pool)
    let taken
    try {
      // The first call listens, then finds the sibling's snapshot.
      taken = await sibling.vectors.of(sibling.place)
    } finally {
      queries.stop()
    }
    expect(queries.sent.filter((sql) => /embedding/.test(sql))).toEqual([])
    expect(taken.table.rowids).toEqual(read.table.rowids)
    for (const position of [0, 17, 39]) {
      expect(Array.from(taken.table.vector(position))).toEqual(Array.from(read.table.vector(position)))
      expect(taken.table.norm(position)).toBe(read.table.norm(position))
    }
  })

  it('a thread started after the read takes it too', async () => {
    const late = await replica(url, url)
    replicas.push(late)
    const queries = countQueries(late.pool)
    let taken
    try {
      // The new thread's hello is answered while it opens its listener.
      taken = await late.vectors.of(late.place)
    } finally {
      queries.stop()
    }
    expect(queries.sent.filter((sql) => /embedding/.test(sql))).toEqual([])
    expect(taken.table.size).toBe(40)
  })

  it('a thread that heard of a change does not take a snapshot read before it', async () => {
    const [, sibling, other] = replicas as [Replica, Replica, Replica]
    await other.place.run((client) => upsertDocuments(client, 'default', [doc('Hotfixes skip the release train', 99)]))
    await other.index.embedPending()
    // The reader's snapshot (40 vectors) is still offered; the sibling heard the change and reads 41.
    await vi.waitFor(async () => expect((await sibling.vectors.of(sibling.place)).table.size).toBe(41))
  })
})
