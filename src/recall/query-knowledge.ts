import type { Workspace } from '../config/workspace.js'
import { formatProblem, problemsToReport } from '../knowledge/load.js'
import type { KnowledgeItem, KnowledgeProblem } from '../knowledge/model.js'
import { readKnowledgeItems } from '../knowledge/read-hits.js'
import type { MemoryIdentity } from '../memory/locations.js'
import type { Store } from '../stores/store.js'

export interface KnowledgeQuery {
  /** Words an item must contain one of; absent or blank lists every item the filters let through, by id. */
  text: string | undefined
  statuses: readonly string[]
  types?: readonly string[] | undefined
  layers?: readonly string[] | undefined
  tags?: readonly string[] | undefined
  limit: number
}

/** What the query needs from its caller: the store, whose index stays open between calls. */
export interface KnowledgeQueryPlace {
  workspace: Workspace
  store: Store
  identity: MemoryIdentity
  warn(message: string): void
  progress(done: number, total: number): void
  signal: AbortSignal
}

export interface KnowledgeQueryAnswer {
  items: KnowledgeItem[]
  /** Matches before the limit was applied. */
  totalCount: number
  /** Knowledge files that did not load (each also warned about). */
  problems: KnowledgeProblem[]
}

/**
 * The knowledge items that match a query, ranked by full text fused with meaning, or listed by
 * the filters alone; only the items on the page are read from their files.
 */
export async function queryKnowledge(query: KnowledgeQuery, place: KnowledgeQueryPlace): Promise<KnowledgeQueryAnswer> {
  const { workspace, store, warn } = place
  const index = await store.index.open(warn)
  const fresh = await store.index.refresh({ identity: place.identity, memory: false, warn })
  const problems = problemsToReport({ problems: fresh.knowledgeProblems })
  for (const problem of problems) warn(formatProblem(problem))
  const filters = {
    kind: 'knowledge' as const,
    statuses: query.statuses,
    ...(query.types === undefined ? {} : { types: query.types }),
    ...(query.layers === undefined ? {} : { layers: query.layers }),
    ...(query.tags === undefined ? {} : { tags: query.tags }),
  }
  let ids: string[]
  if (query.text === undefined || query.text.trim() === '') {
    ids = (await index.list(filters)).map((doc) => doc.id).sort((a, b) => a.localeCompare(b))
  } else {
    const { searchMode } = await store.index.embedPending({ warn, progress: place.progress, signal: place.signal })
    const hits = await index.search({ text: query.text, mode: searchMode, limit: 100, textWeight: workspace.config.search.textWeight, filters })
    // Similarities of the bundled encoder have no usable absolute floor (unrelated texts reach 0.6), so an item
    // must contain a query word to match; meaning then decides the order among the matches.
    ids = hits.filter((hit) => hit.scores.text !== undefined).map((hit) => hit.id)
  }
  const items = await readKnowledgeItems(workspace, await index.getMany(ids.slice(0, query.limit)), warn)
  return { items, totalCount: ids.length, problems }
}
