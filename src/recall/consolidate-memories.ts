import type { MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import type { GitIdentity } from '../git/identity.js'
import { countersOf } from '../memory/counters.js'
import { planConsolidation } from '../memory/consolidate.js'
import { visibleFoldersOfLayers, type MemoryIdentity } from '../memory/locations.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import type { Store } from '../stores/store.js'

export interface ConsolidationRequest {
  /** Write the aliases; otherwise only report them. */
  apply: boolean
  layers: readonly MemoryLayer[] | undefined
  /** Also merge pairs that look contradictory (the commit message says so). */
  allowContradictory: boolean
  identity: MemoryIdentity
  consumer: MemoryConsumer
}

export interface ConsolidationPlace {
  workspace: Workspace
  store: Store
  author: GitIdentity | undefined
  warn(message: string): void
  progress?: ((event: { phase: string; done: number; total: number | undefined }) => void) | undefined
  signal: AbortSignal
}

export interface Consolidation {
  scanned: number
  clusters: { layer: MemoryLayer; canonical: string; aliases: string[] }[]
  contradictory_candidates: { layer: MemoryLayer; a: string; b: string; cosine: number; reason: string }[]
  applied: boolean
  /** The MK_HOME history commits of private layers; shared-layer files are left for the caller to commit. */
  commits: string[]
}

/**
 * Merge the memories of each visible layer that restate each other: the most used one of a
 * cluster stays canonical and the others become its aliases. Compares by meaning, so it needs
 * an embedding model; contradicting pairs are reported and merged only when asked.
 */
export async function consolidateMemories(request: ConsolidationRequest, place: ConsolidationPlace): Promise<Consolidation> {
  const { identity, consumer } = request
  const { store, warn } = place
  const folders = visibleFoldersOfLayers(place.workspace, identity, request.layers)
  const index = await store.index.open(warn)
  await store.index.refresh({ identity, folders, knowledge: false, warn })
  const { searchMode } = await store.index.embedPending({
    warn,
    progress: (done, total) => place.progress?.({ phase: 'embedding new memories', done, total }),
    signal: place.signal,
  })
  if (searchMode !== 'hybrid') {
    throw new MkError('INVALID_INPUT', 'consolidation compares memories by meaning, and no embedding model is available here', {
      details: { hint: 'set search.embedding.provider in .mkrc to bundled (the default) or another model' },
    })
  }
  const output: Consolidation = { scanned: 0, clusters: [], contradictory_candidates: [], applied: request.apply, commits: [] }
  for (const folder of folders) {
    // Aliases are not candidates again; a fact is consolidated within its own layer.
    const filters = { kind: 'memory' as const, sources: [folder.key], consumer, statuses: ['hot', 'warm', 'cold', 'archive'], includeExpired: true }
    const docs = new Map((await index.list({ ...filters, order: 'any' })).map((doc) => [doc.id, doc]))
    const counters = await store.activations.counters(folder)
    const candidates = (await index.documentVectors(filters)).flatMap(({ id, vector }) => {
      const doc = docs.get(id)
      return doc === undefined
        ? []
        : [{ id, content: doc.content, vector, activations: countersOf(counters, id).activations, created: new Date(doc.updatedAt).toISOString() }]
    })
    output.scanned += candidates.length
    const plan = planConsolidation(candidates, { allowContradictory: request.allowContradictory })
    output.clusters.push(...plan.clusters.map((cluster) => ({ layer: folder.layer, ...cluster })))
    output.contradictory_candidates.push(...plan.contradictory.map((pair) => ({ layer: folder.layer, ...pair })))
    if (!request.apply || plan.clusters.length === 0) continue
    const records = []
    for (const cluster of plan.clusters) {
      const canonical = (await store.memories.find(identity, cluster.canonical)).record
      records.push({ ...canonical, mergedFrom: [...new Set([...(canonical.mergedFrom ?? []), ...cluster.aliases])] })
      for (const alias of cluster.aliases) records.push({ ...(await store.memories.find(identity, alias)).record, aliasOf: cluster.canonical })
    }
    const forced =
      request.allowContradictory && plan.contradictory.length > 0
        ? `\n\n--allow-contradictory: merged ${plan.contradictory.length} pairs that look contradictory\n`
        : ''
    const commit = await store.memories.rewrite(folder, records, `consolidate ${plan.clusters.length} clusters (${folder.key})${forced}`, {
      author: place.author,
      warn,
    })
    if (commit !== undefined) output.commits.push(commit)
  }
  return output
}
