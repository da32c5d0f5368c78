import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { MemoryIdentity } from '../memory/locations.js'
import type { KnowledgeReindex } from '../stores/index-store.js'
import type { Store } from '../stores/store.js'
import { withLock } from '../fs/lock.js'
import { reindexChanges, winnersOf } from './reindex.js'
import { memoriesReferring, type StaleMemory } from './stale.js'
import type { SyncOptions, SyncReport } from './report.js'
import { syncKnowledge } from './sync.js'

export interface SyncRun {
  report: SyncReport
  reindex: KnowledgeReindex
  /** Memories whose refs name an item this sync superseded, deprecated or deleted. */
  staleMemories: StaleMemory[]
}

const staleStatuses: ReadonlySet<string | undefined> = new Set(['superseded', 'deprecated'])

/** Ids this sync made superseded, deprecated or deleted (another layer's item may still stand in for a deleted one). */
function newlyRetired(report: SyncReport): Set<string> {
  const ids = new Set<string>()
  for (const change of report.changes) {
    if (change.id === undefined) continue
    if (change.change === 'deleted' || (staleStatuses.has(change.statusAfter) && !staleStatuses.has(change.statusBefore))) ids.add(change.id)
  }
  return ids
}

/**
 * `mk sync` end to end: sources, then the index (only the changed items), then the
 * memories the changes made stale. The index and the memory scan never fail a sync:
 * a problem there is a warning, and the next search catches up from the files.
 */
export function runSync(workspace: Workspace, options: SyncOptions & { identity: MemoryIdentity; store: Store }): Promise<SyncRun> {
  // One sync per workspace at a time: two would each write the state from the same starting point.
  return withLock(join(workspace.stateDir, 'sync.lock'), { what: 'this workspace', onBusy: 'fail', retry: 'mk sync' }, () => syncAll(workspace, options))
}

async function syncAll(workspace: Workspace, options: SyncOptions & { identity: MemoryIdentity; store: Store }): Promise<SyncRun> {
  const mark = await options.store.index.knowledgeMark()
  const report = await syncKnowledge(workspace, options)
  let reindex: KnowledgeReindex = { upserted: 0, removed: 0, keptFresh: false }
  try {
    if (mark !== undefined && report.items.length + report.deletedIds.length > 0) {
      options.progress?.({ phase: 'index', done: 0, total: undefined, message: 'updating the search index' })
    }
    reindex = await reindexChanges(workspace, options.store.index, {
      items: report.items,
      deletedIds: report.deletedIds,
      state: report.state,
      mark,
      warn: options.warn,
    })
  } catch (error) {
    options.warn(`the search index was not updated (${(error as Error).message}); the next search reads the changed files`)
  }
  let staleMemories: StaleMemory[] = []
  const retired = newlyRetired(report)
  try {
    const winners = winnersOf(report.state, retired)
    staleMemories = await memoriesReferring(workspace, options.store.memories, options.identity, retired, (id) => winners.get(id)?.status)
  } catch (error) {
    options.warn(`could not look for memories made stale by this sync: ${(error as Error).message}`)
  }
  return { report, reindex, staleMemories }
}
