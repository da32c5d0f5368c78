import type { KnowledgeLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { toErrorObject } from '../errors.js'
import { resolveSources } from '../knowledge/sources.js'
import { probeRemote, remoteOf, type GitSourceConfig } from './mirror-source.js'
import { readSyncState, type SyncErrorState } from './state.js'

export interface RemoteProbe {
  reachable: boolean
  /** The commit the source's ref points at on the remote now. */
  commit: string | undefined
  /** The remote has commits this workspace has not synced yet. */
  behind: boolean
  error: SyncErrorState | undefined
}

export interface SourceStatus {
  name: string
  layer: KnowledgeLayer
  kind: 'path' | 'git'
  commit: string | undefined
  lastSyncAt: string | undefined
  error: SyncErrorState | undefined
  remote: RemoteProbe | undefined
}

export interface FailedItem {
  source: string
  path: string
  message: string
}

export interface SyncStatus {
  healthy: boolean
  /** Why it is not healthy, one sentence each. */
  problems: string[]
  lastSyncAt: string | undefined
  failedItems: FailedItem[]
  stats: { totalSyncs: number; totalItemsSynced: number; avgSyncDurationMs: number }
  sources: SourceStatus[]
}

export interface StatusOptions {
  /** Ask each git remote where its ref points now (one request each). */
  probe: boolean
  env: NodeJS.ProcessEnv
  timeoutMs: number
  warn(message: string): void
}

async function probe(source: GitSourceConfig, syncedCommit: string | undefined, options: StatusOptions): Promise<RemoteProbe> {
  try {
    const remote = remoteOf(source, options)
    const target = await probeRemote(source, remote)
    return { reachable: true, commit: target.commit, behind: target.commit !== syncedCommit, error: undefined }
  } catch (thrown) {
    const error = toErrorObject(thrown)
    const hint = error.details?.hint
    return {
      reachable: false,
      commit: undefined,
      behind: false,
      error: { errorCode: error.errorCode, message: error.message, retryable: error.retryable, ...(typeof hint === 'string' ? { hint } : {}) },
    }
  }
}

/** What the last sync left behind, and (with `probe`) whether each remote is still there and ahead of it. */
export async function syncStatus(workspace: Workspace, options: StatusOptions): Promise<SyncStatus> {
  const state = await readSyncState(workspace, options.warn)
  const sources = await Promise.all(
    resolveSources(workspace).map(async (source): Promise<SourceStatus> => {
      const saved = state.sources[source.name]
      const config = workspace.config.knowledge.sources.find((candidate) => candidate.name === source.name)
      const remote = options.probe && config !== undefined && 'url' in config ? await probe(config, saved?.commit, options) : undefined
      return { name: source.name, layer: source.layer, kind: source.kind, commit: saved?.commit, lastSyncAt: saved?.lastSyncAt, error: saved?.error, remote }
    }),
  )
  const failedItems = Object.entries(state.sources).flatMap(([name, source]) =>
    Object.entries(source.files).flatMap(([path, file]) => (file.error === undefined ? [] : [{ source: name, path, message: file.error }])),
  )
  const problems = [
    // A folder source is read where it is: only a git source needs a first sync.
    ...sources
      .filter((source) => source.kind === 'git' && source.lastSyncAt === undefined && source.error === undefined)
      .map((source) => `source "${source.name}" has never been synced`),
    ...sources.flatMap((source) => (source.error === undefined ? [] : [`last sync of "${source.name}" failed: ${source.error.message}`])),
    ...sources.flatMap((source) => (source.remote?.error === undefined ? [] : [source.remote.error.message])),
    ...(failedItems.length > 0 ? [`${failedItems.length} item${failedItems.length === 1 ? '' : 's'} failed to parse`] : []),
  ]
  const { totalSyncs, totalItemsSynced, totalDurationMs } = state.stats
  return {
    healthy: problems.length === 0,
    problems,
    lastSyncAt: state.lastSyncAt,
    failedItems,
    stats: { totalSyncs, totalItemsSynced, avgSyncDurationMs: totalSyncs === 0 ? 0 : Math.round(totalDurationMs / totalSyncs) },
    sources,
  }
}

/** "3 minutes ago", "2 days ago", "never". */
export function timeSince(iso: string | undefined, now: Date): string {
  if (iso === undefined) return 'never'
  const seconds = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 1000))
  if (seconds < 10) return 'just now'
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ]
  for (const [size, name] of units) {
    if (seconds >= size) {
      const count = Math.floor(seconds / size)
      return `${count} ${name}${count === 1 ? '' : 's'} ago`
    }
  }
  return 'just now'
}
