import type { KnowledgeProblem } from '../knowledge/model.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import type { SearchIndex } from '../search/search-index.js'

/**
 * What callers ask of a store's search index: documents (memories, knowledge, directives) by
 * id, by filters and by a query, with the engine's fusion and calibration. The SQLite index is
 * one; a store on a database answers the same calls from its own tables.
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
>

export interface FreshnessOptions {
  identity: MemoryIdentity
  warn(message: string): void
  /** Memories (default) and knowledge (default) can each be left as they are. */
  memory?: boolean
  knowledge?: boolean
  /** Only these memory folders (default: every folder visible to the identity). */
  folders?: readonly MemoryFolder[]
  /** Check every item again instead of trusting what says nothing changed (`mk index update`). */
  force?: boolean
}

export interface FreshnessReport {
  memoriesRead: number
  documentsRemoved: number
  knowledgeReloaded: boolean
  knowledgeProblems: KnowledgeProblem[]
}

export interface SearchReadiness {
  /** What the search really runs as: hybrid only when a model is configured and answered. */
  searchMode: 'hybrid' | 'fulltext'
  /** Documents still without a vector (found by full text only). */
  pendingEmbeddings: number
}

export interface EmbedOptions {
  warn(message: string): void
  progress?: ((done: number, total: number) => void) | undefined
  signal?: AbortSignal
}

/** The status of a knowledge item by id (undefined for none): what a memory's refs are checked against. */
export type KnowledgeStatusLookup = (id: string) => string | undefined

/**
 * A store's search index. Whether it is derived from files and refreshed before a search (the
 * files store) or written with the data (a database) is the store's concern: callers ask for
 * freshness before they search and the store does what it needs.
 */
export interface StoreIndex {
  /** The index, opened once per process and tenant; notices about it go to warn. */
  open(warn: (message: string) => void): Promise<DocumentIndex>
  /** Make the index reflect the memories and knowledge before a search. */
  refresh(options: FreshnessOptions): Promise<FreshnessReport>
  /** Embed what still waits for a vector, so that nothing is searched by full text alone. */
  embedPending(options: EmbedOptions): Promise<SearchReadiness>
  /** Knowledge statuses by id, once the index has caught up with the knowledge. */
  knowledgeStatus(identity: MemoryIdentity, warn: (message: string) => void): Promise<KnowledgeStatusLookup>
}
