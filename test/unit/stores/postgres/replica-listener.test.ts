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

/** Two replicas of one database, each with a pool of ONE connection (MK_STORE_POOL_SIZE=1). */
describe.skipIf(noPostgres !== undefined)('replicas whose pool holds one connection', () => {
  const embedder = wordEmbedder({ synonyms: {} })
  let pools: Pool[] = []
  let replicas: { vectors: ReplicaVectors; index: PostgresDocumentIndex; place: TenantScope }[] = []

  beforeAll(async () => {
    const url = postgres.cluster().createDatabase()
    pools = [await openPool({ url, poolSize: 1 }), await openPool({ url, poolSize: 1 })]
    await migrate(pools[0] as Pool)
    replicas = pools.map((pool) => {
      const vectors = new ReplicaVectors(async () => pool)
      const place = replicaScope({ pool: async () => pool, vectors: vectors }, 'acme', 'default', {} as Workspace)
      return { vectors, place, index: new PostgresDocumentIndex(place, vectors, embedder) }
    })
    const [first] = replicas
    if (first === undefined) throw new Error('no replica')
    await first.place.run((client) =>
      upsertDocuments(client, 'default', [doc('Releases are cut from the trunk every Tuesday', 1), doc('The deploy script needs the VPN', 2)]),
    )
    await first.index.embedPending()
  })
  afterAll(async () => {
    for (const replica of replicas) await replica.vectors.close()
    await Promise.all(pools.map((pool) => pool.end()))
  })

  // The LISTEN connection took the only pooled one: the search's read waited for it until the pool's 5 s timeout (UNAVAILABLE).
  it('answers a hybrid search: listening for changes takes no connection of the pool', async () => {
    const [first] = replicas
    if (first === undefined) throw new Error('no replica')
    const hits = await first.index.search({
      text: 'deploy script',
      mode: 'hybrid',
      limit: 5,
      filters: { kind: 'memory', consumer: { agentId: undefined, teamId: undefined } },
    })
    expect(hits.map((hit) => hit.id)).toContain(doc('', 2).id)
  })

  it('reads the calibration sample once, and again after another replica embeds a document', async () => {
    const [first, second] = replicas
    if (first === undefined || second === undefined) throw new Error('no replicas')
    expect(await second.vectors.sample(second.place)).toHaveLength(2)
    const queries = countQueries(pools[1] as Pool)
    try {
      expect(await second.vectors.sample(second.place)).toHaveLength(2)
    } finally {
      queries.stop()
    }
    expect(queries.sent).toEqual([])
    await first.place.run((client) => upsertDocuments(client, 'default', [doc('We ship the release train from the trunk', 3)]))
    await first.index.embedPending()
    await vi.waitFor(async () => expect(await second.vectors.sample(second.place)).toHaveLength(3))
  })
})
