import type { SearchIndex } from './search-index.js'

type Reads = 'getMany' | 'list' | 'stats' | 'state' | 'pendingCount' | 'vectorsOf' | 'documentVectors'

/** A read the SQLite index answers at once and a database answers later: callers always await it. */
type Awaitable<F> = F extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : never

/**
 * What callers ask of an index of documents (memories, knowledge, directives): by id, by
 * filters and by a query, with the engine's fusion and calibration. The SQLite index is one; a
 * store on a database answers the same calls from its own tables (src/stores/index-store.ts).
 */
export type DocumentIndex = Pick<SearchIndex, 'search' | 'nearDuplicates' | 'embedderWarm' | 'canSearchVectors' | 'effectiveMode' | 'embeddingModel'> &
  Partial<Pick<SearchIndex, 'expectQuery'>> & {
    [K in Reads]: Awaitable<SearchIndex[K]>
  }
