import { stat } from 'node:fs/promises'
import { relative } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { MkError, toErrorObject } from '../errors.js'
import { toPosix } from '../fs/walk.js'
import type { ResolvedSource } from '../knowledge/sources.js'
import { diffFiles } from './files.js'
import { mirrorGitSource } from './mirror-source.js'
import type { ChangeKind, SourceOutcome, SourceReport, SyncOptions } from './report.js'
import { currentFiles, gitConfigOf, parseFile } from './source-files.js'
import type { FileState, SourceState, SyncErrorState } from './state.js'

// One source's sync: bring its copy up to date, then parse only the files that changed.

const lintHint = 'fix the file in its source; mk knowledge lint lists every problem'

/** Clone or update a git source, or check a folder source exists; returns the commit for git sources. */
async function bringUp(
  workspace: Workspace,
  source: ResolvedSource,
  report: SourceReport,
  options: SyncOptions,
): Promise<{ commit: string; fullRef: string } | undefined> {
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

export async function syncSource(
  workspace: Workspace,
  source: ResolvedSource,
  previous: SourceState | undefined,
  options: SyncOptions,
  now: string,
): Promise<SourceOutcome> {
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
  const report: SourceReport = {
    name: source.name,
    layer: source.layer,
    kind: source.kind,
    action: 'scanned',
    commit: previous?.commit,
    previousCommit: previous?.commit,
    added: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
  }
  const outcome: SourceOutcome = { report, state: base, failures: [], changes: [], items: [], deletedIds: [], reparsed: 0 }
  try {
    const mirrored = await bringUp(workspace, source, report, options)
    const commit = mirrored?.commit
    const current = await currentFiles(workspace, source, commit, previous)
    // A source that moved to another layer changes how its items shadow others: re-process it whole.
    const reprocessAll = options.force || (previous !== undefined && previous.layer !== source.layer)
    const delta = diffFiles(previous?.files ?? {}, current)
    const files: Record<string, FileState> = { ...base.files }
    const wanted = (type: string | undefined): boolean =>
      options.types === undefined || (type !== undefined && (options.types as readonly string[]).includes(type))
    let partial = false

    const toParse = reprocessAll ? [...delta.added, ...delta.updated, ...delta.unchanged] : [...delta.added, ...delta.updated]
    if (toParse.length > 0)
      options.progress?.({
        phase: source.name,
        done: 0,
        total: toParse.length,
        message: `parsing ${toParse.length} changed file${toParse.length === 1 ? '' : 's'}`,
      })
    const parsed = await Promise.all(toParse.map(async (path) => ({ path, ...(await parseFile(workspace, source, path, current.get(path) ?? '')) })))
    outcome.reparsed = parsed.length
    const changeOf = new Map<string, ChangeKind>([
      ...delta.added.map((path) => [path, 'added'] as const),
      ...delta.updated.map((path) => [path, 'updated'] as const),
    ])
    const failed = (path: string, entry: FileState): void => {
      if (entry.error !== undefined)
        outcome.failures.push({ source: source.name, path, errorCode: 'INVALID_INPUT', message: entry.error, retryable: false, hint: lintHint })
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
    const failure: SyncErrorState = {
      errorCode: error.errorCode,
      message: error.message,
      retryable: error.retryable,
      ...(typeof hint === 'string' ? { hint } : {}),
    }
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
