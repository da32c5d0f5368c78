export type DocumentKind = 'memory' | 'knowledge' | 'directive'
export type SearchMode = 'hybrid' | 'fulltext' | 'vector'

/** One searchable unit: a memory, a knowledge item or one of its directives. The files are the truth; this is derived from them. */
export interface IndexDocument {
  id: string
  kind: DocumentKind
  layer: string
  title?: string | undefined
  content: string
  tags: readonly string[]
  /** Where the document came from (a memory folder key such as `agent/alice`, or a knowledge source name). */
  source?: string | undefined
  /** The file, relative to its source. */
  path?: string | undefined
  /** Milliseconds since the epoch. */
  updatedAt: number
  expiresAt?: number | undefined
  type?: string | undefined
  status?: string | undefined
  /** What a kind keeps beyond the common fields, as JSON (a directive's severity and breadcrumb). */
  meta?: string | undefined
}

export interface SearchFilters {
  kind?: DocumentKind
  layers?: readonly string[]
  sources?: readonly string[]
  types?: readonly string[]
  statuses?: readonly string[]
  /** A document must carry every one of these tags. */
  tags?: readonly string[]
  /** Documents whose `expiresAt` is at or before this time (ms) are left out; default now. */
  now?: number
  includeExpired?: boolean
  /**
   * The agent and team reading: a memory restricted to its owners (a private memory in a shared
   * layer) is found only by them. Always applied; an unnamed consumer sees no restricted memory.
   */
  consumer?: { agentId: string | undefined; teamId: string | undefined }
}

export interface SearchRequest {
  text: string
  mode: SearchMode
  limit: number
  /** Weight of the normalised BM25 score in hybrid fusion; the vector score gets 1 - textWeight. */
  textWeight?: number
  filters?: SearchFilters
  /** A caller's own query vector (the HTTP contract's query_embedding), used instead of embedding `text`. */
  queryVector?: Float32Array
}

/** What a search hit says of its document without reading it whole. */
export interface DocumentHead {
  id: string
  layer: string
  source: string | undefined
  /** The normalised content's hash: copies of one fact share it (src/search/normalise.ts). */
  dedupKey: string
}

export interface SearchHit extends DocumentHead {
  /** Fused score in [0, 1], higher is better. */
  score: number
  /**
   * How likely the hit answers the query, in [0, 1] with one meaning for every query (calibration.ts):
   * 0.7 and above is usually an answer; under 0.7 at the top, the index most likely holds none.
   * A near-duplicate look-up reports its cosine similarity here.
   */
  confidence: number
  /** The parts of the score: BM25 (positive, unbounded) and cosine similarity. */
  scores: { text?: number; vector?: number }
}

export interface IndexStats {
  documents: number
  memories: number
  knowledge: number
  /** Normative statements extracted from the knowledge items. */
  directives: number
  /** Documents still waiting for an embedding. */
  pending: number
  modelId: string | undefined
  dimensions: number | undefined
  schemaVersion: number
  sizeBytes: number
}
