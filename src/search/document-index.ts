import type { SearchIndex } from './search-index.js'

/**
 * What callers ask of an index of documents (memories, knowledge, directives): by id, by
 * filters and by a query, with the engine's fusion and calibration. The SQLite index is one; a
 * store on a database answers the same calls from its own tables (src/stores/index-store.ts).
 */
export type DocumentIndex = Pick<
  SearchIndex,
  | 'search'
  | 'getMany'
  | 'list'
  | 'stats'
  | 'state'
  | 'nearDuplicates'
  | 'embedderWarm'
  | 'canSearchVectors'
  | 'effectiveMode'
  | 'pendingCount'
  | 'vectorsOf'
  | 'documentVectors'
  | 'embeddingModel'
>
