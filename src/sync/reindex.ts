import { relative, resolve } from 'node:path'
import { layerRank } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { readRulesText } from '../fs/read-capped.js'
import { toPosix } from '../fs/walk.js'
import type { KnowledgeItem } from '../knowledge/model.js'
import { resolveSources } from '../knowledge/sources.js'
import type { KnowledgeReindex, StoreIndex } from '../stores/index-store.js'
import type { SyncState } from './state.js'

/** Where an id lives after the sync: the most specific layer's file wins, as in the loader. */
export interface Winner {
  source: string
  path: string
  status: string | undefined
}

export function winnersOf(state: SyncState, ids: ReadonlySet<string>): Map<string, Winner> {
  const candidates = new Map<string, (Winner & { rank: number })[]>()
  for (const [source, saved] of Object.entries(state.sources)) {
    for (const [path, entry] of Object.entries(saved.files)) {
      if (entry.id === undefined || !ids.has(entry.id)) continue
      candidates.set(entry.id, [...(candidates.get(entry.id) ?? []), { source, path, status: entry.status, rank: layerRank(saved.layer) }])
    }
  }
  const winners = new Map<string, Winner>()
  for (const [id, list] of candidates) {
    const [best] = [...list].sort((a, b) => a.rank - b.rank || a.path.localeCompare(b.path))
    if (best !== undefined) winners.set(id, { source: best.source, path: best.path, status: best.status })
  }
  return winners
}

async function parseWinner(workspace: Workspace, winner: Winner): Promise<KnowledgeItem | undefined> {
  const source = resolveSources(workspace).find((candidate) => candidate.name === winner.source)
  if (source === undefined) return undefined
  const absolutePath = resolve(source.directory, winner.path)
  const path = toPosix(relative(workspace.root, absolutePath))
  const text = await readRulesText(absolutePath, path).catch(() => undefined)
  if (text === undefined) return undefined
  const { parseKnowledgeFile } = await import('../knowledge/parse.js')
  const parsed = await parseKnowledgeFile({
    path,
    absolutePath,
    source: source.name,
    layer: source.layer,
    text,
    statusMap: workspace.config.knowledge.statusMap,
  })
  return parsed.item
}

/**
 * Hand a sync's changes to the store's index: the items whose files changed, the ids that are
 * gone, and where a change uncovers or hides a shadowed item, whichever layer now wins.
 * Unchanged items are not read.
 */
export async function reindexChanges(
  workspace: Workspace,
  index: StoreIndex,
  change: { items: readonly KnowledgeItem[]; deletedIds: readonly string[]; state: SyncState; mark: string | undefined; warn(message: string): void },
): Promise<KnowledgeReindex> {
  const affected = new Set([...change.items.map((item) => item.id), ...change.deletedIds])
  if (affected.size === 0 || change.mark === undefined) return { upserted: 0, removed: 0, keptFresh: false }
  const winners = winnersOf(change.state, affected)
  const parsed = new Map(change.items.map((item) => [`${item.source}\0${item.absolutePath}`, item]))
  const upsert: KnowledgeItem[] = []
  const remove: string[] = []
  for (const id of affected) {
    const winner = winners.get(id)
    if (winner === undefined) {
      remove.push(id)
      continue
    }
    const source = resolveSources(workspace).find((candidate) => candidate.name === winner.source)
    const fromSync = source === undefined ? undefined : parsed.get(`${winner.source}\0${resolve(source.directory, winner.path)}`)
    const item = fromSync ?? (await parseWinner(workspace, winner))
    if (item === undefined) remove.push(id)
    else upsert.push(item)
  }
  return index.applyKnowledge({ upsert, remove, mark: change.mark }, change.warn)
}
