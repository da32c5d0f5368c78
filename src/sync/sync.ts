import { readFile, stat } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import type { KnowledgeLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError, toErrorObject } from '../errors.js'
import { toPosix } from '../fs/walk.js'
import type { KnowledgeItem, KnowledgeType } from '../knowledge/model.js'
import { gitSourceCloneDir, resolveSources, type ResolvedSource } from '../knowledge/sources.js'
import { knowledgePathFilter } from '../knowledge/files.js'
import { diffFiles, hashFolder } from './files.js'
import { mirrorGitSource, type GitSourceConfig } from './mirror-source.js'
import { readSyncState, writeSyncState, type FileState, type SourceState, type SyncErrorState, type SyncState } from './state.js'

const lintHint = 'fix the file in its source; mk knowledge lint lists every problem'

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

interface SourceOutcome {
  report: SourceReport
  state: SourceState
  failures: SyncFailure[]
  changes: ItemChange[]
  items: KnowledgeItem[]
  deletedIds: string[]
  reparsed: number
}

function gitConfigOf(workspace: Workspace, name: string): GitSourceConfig | undefined {
  const config = workspace.config.knowledge.sources.find((source) => source.name === name)
  return config !== undefined && 'url' in config ? config : undefined
}

async function parseFile(workspace: Workspace, source: ResolvedSource, path: string, hash: string): Promise<{ entry: FileState; item: KnowledgeItem | undefined }> {
  const absolutePath = resolve(source.directory, path)
  const workspacePath = toPosix(relative(workspace.root, absolutePath))
  let text: string
  try {
    text = await readFile(absolutePath, 'utf8')
  } catch (error) {
    return { entry: { hash, error: `${workspacePath}: cannot read file: ${(error as Error).message}` }, item: undefined }
  }
  // Loaded only when a file changed: a sync with nothing new never pays for the markdown parser.
  const { parseKnowledgeFile } = await import('../knowledge/parse.js')
  const { formatProblem } = await import('../knowledge/load.js')
  const parsed = await parseKnowledgeFile({ path: workspacePath, absolutePath, source: source.name, layer: source.layer, text, statusMap: workspace.config.knowledge.statusMap })
  const firstError = parsed.problems.find((problem) => problem.severity === 'error')
  if (parsed.item === undefined || firstError !== undefined) {
    return { entry: { hash, error: firstError === undefined ? `${workspacePath}: not a knowledge item` : formatProblem(firstError) }, item: undefined }
  }
  const { item } = parsed
  return { entry: { hash, id: item.id, type: item.type, status: item.status }, item }
}

/**
 * The knowledge files of a source now, path -> blob id. A clone still at the commit of a
 * complete earlier sync has exactly the files recorded then, so git is not even loaded.
 */
async function currentFiles(workspace: Workspace, source: ResolvedSource, commit: string | undefined, previous: SourceState | undefined): Promise<Map<string, string>> {
  if (source.kind === 'path' || commit === undefined) return hashFolder(workspace, source.directory)
  const dir = gitConfigOf(workspace, source.name)?.dir ?? ''
  if (previous !== undefined && previous.commit === commit && (previous.dir ?? '') === dir && previous.partial !== true) {
    return new Map(Object.entries(previous.files).map(([path, entry]) => [path, entry.hash]))
  }
  const { listBlobs } = await import('../git/mirror.js')
  const blobs = await listBlobs(gitSourceCloneDir(workspace, source.name), commit, dir)
  const isKnowledge = knowledgePathFilter(workspace, source.directory)
  return new Map([...blobs].filter(([path]) => isKnowledge(path)))
}

/** Clone or update a git source, or check a folder source exists; returns the commit for git sources. */
async function bringUp(workspace: Workspace, source: ResolvedSource, report: SourceReport, options: SyncOptions): Promise<{ commit: string; fullRef: string } | undefined> {
  const config = gitConfigOf(workspace, source.name)
  if (config === undefined) {
    if (await folderExists(source.directory)) return undefined
    const shown = toPosix(relative(workspace.root, source.directory)) || '.'
    throw new MkError('NOT_FOUND', `knowledge folder ${shown} of source "${source.name}" does not exist`, {
      details: { source: source.name, hint: 'create it (mk init), or fix knowledge.sources in .mkrc' },
    })
  }
  options.progress?.({ phase: source.name, done: 0, total: undefined, message: 'contacting remote' })
  const mirrored = await mirrorGitSource(workspace, config, {
    force: options.force,
    env: options.env,
    timeoutMs: options.timeoutMs,
    warn: options.warn,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onProgress: (phase, loaded, total) => options.progress?.({ phase: source.name, done: loaded, total, message: phase }),
  })
  report.action = mirrored.action
  report.commit = mirrored.commit
  return mirrored
}

async function syncSource(workspace: Workspace, source: ResolvedSource, previous: SourceState | undefined, options: SyncOptions, now: string): Promise<SourceOutcome> {
  const config = gitConfigOf(workspace, source.name)
  const base: SourceState = {
    kind: source.kind,
    layer: source.layer,
    files: previous?.files ?? {},
    ...(config === undefined ? {} : { url: config.url, ...(config.dir === undefined ? {} : { dir: config.dir }) }),
    ...(previous?.ref === undefined ? {} : { ref: previous.ref }),
    ...(previous?.commit === undefined ? {} : { commit: previous.commit }),
    ...(previous?.partial === undefined ? {} : { partial: previous.partial }),
    ...(previous?.lastSyncAt === undefined ? {} : { lastSyncAt: previous.lastSyncAt }),
    lastAttemptAt: now,
  }
  const report: SourceReport = { name: source.name, layer: source.layer, kind: source.kind, action: 'scanned', commit: previous?.commit, previousCommit: previous?.commit, added: 0, updated: 0, deleted: 0, unchanged: 0 }
  const outcome: SourceOutcome = { report, state: base, failures: [], changes: [], items: [], deletedIds: [], reparsed: 0 }
  try {
    const mirrored = await bringUp(workspace, source, report, options)
    const commit = mirrored?.commit
    const current = await currentFiles(workspace, source, commit, previous)
    // A source that moved to another layer changes how its items shadow others: re-process it whole.
    const reprocessAll = options.force || (previous !== undefined && previous.layer !== source.layer)
    const delta = diffFiles(previous?.files ?? {}, current)
    const files: Record<string, FileState> = { ...base.files }
    const wanted = (type: string | undefined): boolean => options.types === undefined || (type !== undefined && (options.types as readonly string[]).includes(type))
    let partial = false

    const toParse = reprocessAll ? [...delta.added, ...delta.updated, ...delta.unchanged] : [...delta.added, ...delta.updated]
    if (toParse.length > 0) options.progress?.({ phase: source.name, done: 0, total: toParse.length, message: `parsing ${toParse.length} changed file${toParse.length === 1 ? '' : 's'}` })
    const parsed = await Promise.all(toParse.map(async (path) => ({ path, ...(await parseFile(workspace, source, path, current.get(path) ?? '')) })))
    outcome.reparsed = parsed.length
    const changeOf = new Map<string, ChangeKind>([...delta.added.map((path) => [path, 'added'] as const), ...delta.updated.map((path) => [path, 'updated'] as const)])
    const failed = (path: string, entry: FileState): void => {
      if (entry.error !== undefined) outcome.failures.push({ source: source.name, path, errorCode: 'INVALID_INPUT', message: entry.error, retryable: false, hint: lintHint })
    }
    for (const { path, entry, item } of parsed) {
      // An item of a type not asked for stays as it was, to be processed by a later sync.
      if (entry.error === undefined && !wanted(entry.type)) {
        partial = true
        continue
      }
      files[path] = entry
      failed(path, entry)
      if (item !== undefined) outcome.items.push(item)
      const change = changeOf.get(path)
      if (change === undefined) {
        report.unchanged++
        continue
      }
      report[change]++
      outcome.changes.push({ source: source.name, path, id: entry.id, change, statusBefore: previous?.files[path]?.status, statusAfter: entry.status })
    }
    if (!reprocessAll) {
      for (const path of delta.unchanged) {
        const entry = files[path]
        if (entry === undefined || !wanted(entry.type)) continue
        report.unchanged++
        failed(path, entry)
      }
    }
    for (const path of delta.deleted) {
      const entry = files[path]
      if (entry === undefined) continue
      if (entry.error === undefined && !wanted(entry.type)) {
        partial = true
        continue
      }
      delete files[path]
      report.deleted++
      if (entry.id !== undefined) outcome.deletedIds.push(entry.id)
      outcome.changes.push({ source: source.name, path, id: entry.id, change: 'deleted', statusBefore: entry.status, statusAfter: undefined })
    }
    outcome.state = {
      ...base,
      files,
      partial,
      ...(mirrored === undefined ? {} : { commit: mirrored.commit, ref: config?.ref ?? mirrored.fullRef }),
      lastSyncAt: now,
    }
    return outcome
  } catch (thrown) {
    const error = toErrorObject(thrown)
    const hint = error.details?.hint
    const failure: SyncErrorState = { errorCode: error.errorCode, message: error.message, retryable: error.retryable, ...(typeof hint === 'string' ? { hint } : {}) }
    report.action = 'failed'
    return { report, state: { ...base, error: failure }, failures: [{ source: source.name, ...failure }], changes: [], items: [], deletedIds: [], reparsed: 0 }
  }
}

async function folderExists(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  )
}

/** Items of sources removed from `.mkrc` are gone: report them deleted and forget the source. */
function removedSources(state: Record<string, SourceState>, configured: ReadonlySet<string>): SourceOutcome[] {
  return Object.entries(state)
    .filter(([name]) => !configured.has(name))
    .map(([name, source]) => {
      const entries = Object.entries(source.files)
      return {
        report: { name, layer: source.layer, kind: source.kind, action: 'removed', commit: undefined, previousCommit: source.commit, added: 0, updated: 0, deleted: entries.length, unchanged: 0 },
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
  const removed = options.layers === undefined && options.types === undefined ? removedSources(state.sources, new Set(workspace.config.knowledge.sources.map((source) => source.name))) : []
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

