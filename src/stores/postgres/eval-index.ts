import { randomBytes } from 'node:crypto'
import { configSchema } from '../../config/schema.js'
import type { Workspace } from '../../config/workspace.js'
import type { EmbeddingProvider } from '../../search/embedding/provider.js'
import type { IndexDocument, SearchHit, SearchRequest } from '../../search/types.js'
import { PostgresDocumentIndex } from './document-index.js'
import { upsertDocuments } from './documents.js'
import { replicaScope } from './place.js'
import type { PostgresDatabase } from './postgres-store.js'

/** What an evaluation asks of one group's index (src/eval/run.ts's EvalIndex). */
export interface ScratchIndex {
  upsert(documents: readonly IndexDocument[]): Promise<void>
  embedPending(onProgress?: (done: number, total: number) => void): Promise<number>
  search(request: SearchRequest): Promise<SearchHit[]>
  close(): Promise<void>
}

/**
 * Empty scopes of a PostgreSQL database that an evaluation fills and searches with the store's
 * own writes and search (PostgresDocumentIndex): the same suite, fusion and calibration as on the
 * SQLite index, so the two stores' figures differ only by what their engines find. Each scope is
 * new (a random name under `tenantId`) and deleted on close.
 */
export function postgresScratchIndexes(
  database: PostgresDatabase,
  tenantId: string,
  root: string,
): (number: number, embedder: EmbeddingProvider | undefined) => ScratchIndex {
  const workspace: Workspace = { root, configPath: undefined, config: configSchema.parse({}), mkHome: root, stateDir: root }
  const run = randomBytes(4).toString('hex')
  return (number, embedder) => {
    const scope = `eval-${run}-${number}`
    const place = replicaScope(database, tenantId, scope, workspace)
    const index = new PostgresDocumentIndex(place, database.vectors, embedder)
    return {
      upsert: (documents) => place.run((client) => upsertDocuments(client, scope, documents)),
      embedPending: (onProgress) => index.embedPending(onProgress),
      search: (request) => index.search(request),
      async close() {
        await place.run((client) => client.query('DELETE FROM mk_documents WHERE scope = $1', [scope]))
        database.vectors.forget(place)
      },
    }
  }
}
