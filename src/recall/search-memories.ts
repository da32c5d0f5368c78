import { memoryLayers, type MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { visibleFoldersOfLayers, type MemoryIdentity } from '../memory/locations.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import { collapseAcrossLayers, type ShadowedMemory } from '../search/layer-precedence.js'
import type { Store } from '../stores/store.js'
import { staleReasons } from '../sync/stale.js'

export interface MemorySearchRequest {
  query: string
  layers: readonly MemoryLayer[] | undefined
  tiers: string[]
  tags: string[] | undefined
  /** The least confidence a result needs (0-1; calibration.ts). */
  threshold: number
  limit: number
  /** How many hits are ranked before copies collapse and the page is cut. */
  candidates: number
  identity: MemoryIdentity
  consumer: MemoryConsumer
}

/** What the search needs from its caller: the store, whose index stays open between calls. */
export interface MemorySearchPlace {
  workspace: Workspace
  store: Store
  warn(message: string): void
  progress(done: number, total: number): void
  signal: AbortSignal
}

export interface FoundMemory {
  memoryId: string
  content: string
  layer: MemoryLayer
  score: number
  scores: { text?: number; vector?: number }
  tags: string[]
  shadows: ShadowedMemory[]
  stale: boolean
  staleReason?: string
}

export interface MemorySearch {
  results: FoundMemory[]
  /** True when no memory reached the threshold: as far as the search can tell, none answers the query. */
  abstained: boolean
  totalCount: number
  searchedLayers: MemoryLayer[]
  searchMode: 'hybrid' | 'fulltext'
  pendingEmbeddings: number
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

function roundScores(scores: { text?: number; vector?: number }): { text?: number; vector?: number } {
  const rounded: { text?: number; vector?: number } = {}
  if (scores.text !== undefined) rounded.text = round(scores.text)
  if (scores.vector !== undefined) rounded.vector = round(scores.vector)
  return rounded
}

function layerOf(layer: string): MemoryLayer {
  const known = memoryLayers.find((name) => name === layer)
  if (known === undefined) throw new MkError('INTERNAL_ERROR', `the index holds a memory of an unknown layer "${layer}"`, { details: { layer } })
  return known
}

/**
 * The memories that answer a query, one result per fact across layers (the nearest layer's copy,
 * the others as its shadows), stale ones flagged, with how many matched in all.
 */
export async function searchMemories(request: MemorySearchRequest, place: MemorySearchPlace): Promise<MemorySearch> {
  const { workspace, warn } = place
  const { identity } = request
  const folders = visibleFoldersOfLayers(workspace, identity, request.layers)
  for (const layer of request.layers ?? []) {
    if (!folders.some((folder) => folder.layer === layer))
      warn(
        `the ${layer} layer is not visible here (agent and session layers need --agent or --session; team, org and company need a knowledge source of that layer)`,
      )
  }
  const { store } = place
  const index = await store.index.open(warn)
  index.expectQuery?.(request.query)
  await store.index.refresh({ identity, folders, knowledge: false, warn })
  const { searchMode, pendingEmbeddings } = await store.index.embedPending({ warn, progress: place.progress, signal: place.signal })
  // Ranked past the limit, so that copies of one fact in several layers collapse into one
  // result and totalCount says how many matched, not how many were shown.
  const hits = await index.search({
    text: request.query,
    mode: searchMode,
    limit: request.candidates,
    textWeight: workspace.config.search.memoryTextWeight,
    filters: {
      kind: 'memory',
      sources: folders.map((folder) => folder.key),
      consumer: request.consumer,
      statuses: request.tiers,
      ...(request.tags === undefined ? {} : { tags: request.tags }),
    },
  })
  const kept = hits.filter((hit) => hit.confidence >= request.threshold)
  // Ranked and grouped on what the hits carry; only the page shown is read whole.
  const found = kept.map((hit) => ({
    memoryId: hit.id,
    layer: layerOf(hit.layer),
    source: hit.source,
    dedupKey: hit.dedupKey,
    score: round(hit.confidence),
    scores: roundScores(hit.scores),
  }))
  const { page, total: totalCount } = collapseAcrossLayers(found, request.limit)
  // sync: a memory whose refs point at retired knowledge or a deleted file is flagged stale.
  const folderByKey = new Map(folders.map((folder) => [folder.key, folder]))
  // The page's documents and its refs are read at once (on a database, two round trips in parallel, not one after the other).
  const [pageDocuments, reasons] = await Promise.all([
    index.getMany(page.map((result) => result.memoryId)),
    staleReasons(
      workspace,
      store.memories,
      page.flatMap((result) => {
        const folder = folderByKey.get(result.source ?? '')
        return folder === undefined ? [] : [{ id: result.memoryId, folder }]
      }),
      () => store.index.knowledgeStatus(identity, warn),
    ),
  ])
  const documents = new Map(pageDocuments.map((doc) => [doc.id, doc]))
  const results = page.flatMap(({ memoryId, layer, score, scores, shadows }) => {
    const doc = documents.get(memoryId)
    return doc === undefined ? [] : [{ memoryId, content: doc.content, layer, score, scores, tags: [...doc.tags], shadows }]
  })
  const marked = results.map((result) => {
    const staleReason = reasons.get(result.memoryId)
    return { ...result, stale: staleReason !== undefined, ...(staleReason === undefined ? {} : { staleReason }) }
  })
  const searchedLayers = [...new Set(folders.map((folder) => folder.layer))]
  return { results: marked, abstained: marked.length === 0, totalCount, searchedLayers, searchMode, pendingEmbeddings }
}
