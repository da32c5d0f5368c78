import type { KnowledgeLayer } from '../config/layers.js'
import type { KnowledgeItem, KnowledgeType } from '../knowledge/model.js'
import type { SourceState, SyncErrorState, SyncState } from './state.js'

// What a sync reports and takes: shared by the per-source step, the whole sync and its renderers.

export type ChangeKind = 'added' | 'updated' | 'deleted'

export interface ItemChange {
  source: string
  /** Path relative to the source folder (posix). */
  path: string
  id: string | undefined
  change: ChangeKind
  /** The knowledge status before and after, when known: superseded/deprecated items make memories stale. */
  statusBefore: string | undefined
  statusAfter: string | undefined
}

export interface SyncFailure extends SyncErrorState {
  source: string
  path?: string
}

export interface SourceReport {
  name: string
  layer: KnowledgeLayer
  kind: 'path' | 'git'
  /** cloned/updated/unchanged: what happened to a git clone; scanned: a folder was hashed; failed: nothing changed. */
  action: 'cloned' | 'updated' | 'unchanged' | 'scanned' | 'failed' | 'removed'
  commit: string | undefined
  previousCommit: string | undefined
  added: number
  updated: number
  deleted: number
  unchanged: number
}

export interface SyncReport {
  added: number
  updated: number
  deleted: number
  unchanged: number
  /** Files read and parsed this run: only changed ones, or every one with `force`. */
  reparsed: number
  failures: SyncFailure[]
  changes: ItemChange[]
  sources: SourceReport[]
  /** Parsed items that were added or updated (or every item with `force`): what the index must take in. */
  items: KnowledgeItem[]
  /** Ids whose files were deleted: what the index must drop. */
  deletedIds: string[]
  durationMs: number
  /** The state written at the end of this sync. */
  state: SyncState
}

export interface SyncProgress {
  phase: string
  done: number
  total: number | undefined
  message?: string
}

export interface SyncOptions {
  force: boolean
  types: readonly KnowledgeType[] | undefined
  layers: readonly KnowledgeLayer[] | undefined
  env: NodeJS.ProcessEnv
  /** Per HTTP request. */
  timeoutMs: number
  signal?: AbortSignal
  warn(message: string): void
  progress?: (event: SyncProgress) => void
}

export interface SourceOutcome {
  report: SourceReport
  state: SourceState
  failures: SyncFailure[]
  changes: ItemChange[]
  items: KnowledgeItem[]
  deletedIds: string[]
  reparsed: number
}
