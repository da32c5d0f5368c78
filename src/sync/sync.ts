import type { Workspace } from '../config/workspace.js'
import { resolveSources } from '../knowledge/sources.js'
import type { SourceOutcome, SyncOptions, SyncReport } from './report.js'
import { readSyncState, writeSyncState, type SourceState } from './state.js'
import { syncSource } from './sync-source.js'

/** Items of sources removed from `.mkrc` are gone: report them deleted and forget the source. */
function removedSources(state: Record<string, SourceState>, configured: ReadonlySet<string>): SourceOutcome[] {
  return Object.entries(state)
    .filter(([name]) => !configured.has(name))
    .map(([name, source]) => {
      const entries = Object.entries(source.files)
      return {
        report: {
          name,
          layer: source.layer,
          kind: source.kind,
          action: 'removed',
          commit: undefined,
          previousCommit: source.commit,
          added: 0,
          updated: 0,
          deleted: entries.length,
          unchanged: 0,
        },
        state: source,
        failures: [],
        changes: entries.map(([path, entry]) => ({ source: name, path, id: entry.id, change: 'deleted', statusBefore: entry.status, statusAfter: undefined })),
        items: [],
        deletedIds: entries.flatMap(([, entry]) => (entry.id === undefined ? [] : [entry.id])),
        reparsed: 0,
      }
    })
}

/**
 * Bring every configured source up to date and work out which knowledge items changed
 * since the last sync. One failing source does not stop the others; the state file is
 * written once, atomically, at the end.
 */
export async function syncKnowledge(workspace: Workspace, options: SyncOptions): Promise<SyncReport> {
  const started = performance.now()
  const now = new Date().toISOString()
  const state = await readSyncState(workspace, options.warn)
  const sources = resolveSources(workspace).filter((source) => options.layers === undefined || options.layers.includes(source.layer))
  const outcomes = await Promise.all(sources.map((source) => syncSource(workspace, source, state.sources[source.name], options, now)))
  const removed =
    options.layers === undefined && options.types === undefined
      ? removedSources(state.sources, new Set(workspace.config.knowledge.sources.map((source) => source.name)))
      : []
  const all = [...outcomes, ...removed]

  const sum = (key: 'added' | 'updated' | 'deleted' | 'unchanged'): number => all.reduce((total, outcome) => total + outcome.report[key], 0)
  const report: SyncReport = {
    added: sum('added'),
    updated: sum('updated'),
    deleted: sum('deleted'),
    unchanged: sum('unchanged'),
    reparsed: all.reduce((total, outcome) => total + outcome.reparsed, 0),
    failures: all.flatMap((outcome) => outcome.failures),
    changes: all.flatMap((outcome) => outcome.changes),
    sources: all.map((outcome) => outcome.report),
    items: all.flatMap((outcome) => outcome.items),
    deletedIds: all.flatMap((outcome) => outcome.deletedIds),
    durationMs: 0,
    state,
  }
  for (const outcome of outcomes) state.sources[outcome.report.name] = outcome.state
  for (const outcome of removed) delete state.sources[outcome.report.name]
  report.durationMs = Math.round(performance.now() - started)
  state.stats.totalSyncs++
  state.stats.totalItemsSynced += report.added + report.updated + report.deleted
  state.stats.totalDurationMs += report.durationMs
  if (outcomes.every((outcome) => outcome.report.action !== 'failed')) state.lastSyncAt = now
  await writeSyncState(workspace, state)
  return report
}
