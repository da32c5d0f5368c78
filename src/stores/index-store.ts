import type { KnowledgeItem, KnowledgeProblem } from '../knowledge/model.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import type { DocumentIndex } from '../search/document-index.js'

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
  /** Memory folders whose names were read from disk; the others were known to be unchanged. */
  foldersListed: number
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

/** How a full refresh goes, phase by phase (reading, embedding). */
export interface RefillOptions {
  identity: MemoryIdentity
  warn(message: string): void
  progress?: ((event: { phase: string; done: number; total: number | undefined }) => void) | undefined
  signal?: AbortSignal
}

/** What a full refresh did. */
export interface IndexRefill {
  /** Memories read because they were new or changed, plus knowledge items when the knowledge was loaded again. */
  read: number
  embedded: number
  knowledgeProblems: KnowledgeProblem[]
}

/** What a health check finds of the index, without changing it. */
export type IndexHealth =
  | { state: 'missing' }
  | { state: 'damaged'; problem: string }
  /** Opened, but recreated or told something on the way (a model change): the notices say what. */
  | { state: 'notices'; notices: string[] }
  | { state: 'behind' }
  | { state: 'current' }

/** Knowledge a sync changed: items to index (the winning layer's), ids gone, and the mark taken before the sync. */
export interface KnowledgeChange {
  upsert: readonly KnowledgeItem[]
  remove: readonly string[]
  mark: string
}

export interface KnowledgeReindex {
  upserted: number
  removed: number
  /** False when the index was already behind at the mark: the next search reads all knowledge again. */
  keptFresh: boolean
}

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
  /** Check everything again, not trusting what says nothing changed, and embed what waits (`mk index update`). */
  update(options: RefillOptions): Promise<IndexRefill>
  /** Build the index anew from the data and put it in place of the old one (`mk index rebuild`). */
  rebuild(options: RefillOptions): Promise<IndexRefill>
  /** Look at the index for the doctor: present, intact, caught up with the knowledge. Throws when it cannot be opened. */
  health(warn: (message: string) => void): Promise<IndexHealth>
  /** Where the index is kept, as messages name it (a path relative to the workspace for files). */
  where(): string
  /** Before a sync changes knowledge: a mark of what the index holds, undefined when a delta cannot keep it fresh. */
  knowledgeMark(): Promise<string | undefined>
  /** After a sync: index what changed; the index stays fresh when it was at the mark. */
  applyKnowledge(change: KnowledgeChange, warn: (message: string) => void): Promise<KnowledgeReindex>
  /** Knowledge statuses by id, once the index has caught up with the knowledge. */
  knowledgeStatus(identity: MemoryIdentity, warn: (message: string) => void): Promise<KnowledgeStatusLookup>
}
