import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { importedHistoryFile } from '../../memory/history.js'
import { parseTierTable } from '../../memory/tier-table.js'
import type { HistoryItem, TransferItem } from '../transfer.js'

/** What an import into files commits (the imported history is kept in the archive below, not as these commits). */
export const importCommitMarker = 'mk store import'

/** A memory file's folder key and id, from its path in MK_HOME (memory/<folder dir>/<id>.md), as locations.ts places them. */
export function memoryPathKey(path: string): { folder: string; id: string } | undefined {
  const parts = path.split('/')
  const file = parts.at(-1) ?? ''
  if (parts[0] !== 'memory' || !file.endsWith('.md')) return undefined
  const folder = tierPathKey(parts.slice(0, -1).join('/'))
  return folder === undefined ? undefined : { folder, id: file.slice(0, -'.md'.length) }
}

/** The folder key of a memory folder's path in MK_HOME (memory/user, memory/agent/a, memory/agent-user/a, …). */
function tierPathKey(dir: string): string | undefined {
  const [root, kind, ...rest] = dir.split('/')
  if (root !== 'memory') return undefined
  if (kind === 'user' && rest.length === 0) return 'user'
  if ((kind === 'agent' || kind === 'session') && rest.length === 1) return `${kind}/${rest[0] ?? ''}`
  if (kind === 'agent-user' && rest.length === 1) return `user/${rest[0] ?? ''}`
  if (kind === 'agent-session' && rest.length === 2) return `session/${rest.join('/')}`
  return undefined
}

interface Changed {
  path: string
  before: string | undefined
  after: string | undefined
}

type Git = typeof import('isomorphic-git').default

/** The blobs two commits differ in under the folders the history is about; equal subtrees are not walked. */
async function changedPaths(git: Git, home: string, cache: object, parent: string | undefined, commit: string, roots: ReadonlySet<string>): Promise<Changed[]> {
  const trees = parent === undefined ? [git.TREE({ ref: commit })] : [git.TREE({ ref: parent }), git.TREE({ ref: commit })]
  const found = (await git.walk({
    fs,
    dir: home,
    cache,
    trees,
    map: async (path, entries) => {
      if (path === '.') return undefined
      if (!path.includes('/') && !roots.has(path)) return null
      const [first, second] = entries
      const [old, now] = parent === undefined ? [null, first ?? null] : [first ?? null, second ?? null]
      const before = await old?.oid()
      const after = await now?.oid()
      if (before === after) return null
      // A folder that changed: walk into it (undefined keeps it out of the results, not its children).
      if ((await old?.type()) === 'tree' || (await now?.type()) === 'tree') return undefined
      return { path, before, after }
    },
  })) as Changed[]
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/**
 * A files tenant's history as the portable form holds it: each commit of MK_HOME's git (oldest
 * first), one entry per memory it changed, with git's commit id, time and author; rule outcome
 * commits also give the outcome lines they appended. The history an import brought is read from
 * its archive first; the import's own commit is left out (its content is that archive).
 */
export async function readFilesHistory(home: string, outcomesFolder: string): Promise<{ history: HistoryItem[]; outcomes: TransferItem[] }> {
  const history: HistoryItem[] = []
  const outcomes: TransferItem[] = []
  const archive = join(home, importedHistoryFile)
  if (existsSync(archive)) {
    for (const line of fs.readFileSync(archive, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const item = JSON.parse(line) as TransferItem
      if (item.kind === 'history') history.push(item)
      else outcomes.push(item)
    }
  }
  if (!existsSync(join(home, '.git'))) return { history, outcomes }
  const { default: git } = await import('isomorphic-git')
  const cache = {}
  const log = await git.log({ fs, dir: home, cache }).catch(() => [])
  const roots = new Set(['memory', 'deleted', outcomesFolder.split('/')[0] ?? 'rule-outcomes'])
  const blob = async (oid: string | undefined): Promise<string | undefined> =>
    oid === undefined ? undefined : Buffer.from((await git.readBlob({ fs, dir: home, oid, cache })).blob).toString('utf8')
  for (const { oid, commit } of log.reverse()) {
    const { message } = commit
    if (message.startsWith(importCommitMarker)) continue
    const base = {
      kind: 'history' as const,
      commit: oid,
      at: new Date(commit.author.timestamp * 1000).toISOString(),
      author: `${commit.author.name} <${commit.author.email}>`,
      message,
    }
    const entries: HistoryItem[] = []
    const deletion = /^delete (\S+)/.exec(message)
    if (deletion !== null) {
      const archived = /^archived: (.+)$/m.exec(message)?.[1]
      const text = archived === undefined ? undefined : await git.readBlob({ fs, dir: home, oid, filepath: archived, cache }).catch(() => undefined)
      entries.push({
        ...base,
        op: 'delete',
        folder: /^folder: (.+)$/m.exec(message)?.[1] ?? null,
        memory_id: deletion[1] ?? null,
        text: text === undefined ? null : Buffer.from(text.blob).toString('utf8'),
      })
    }
    if (message.startsWith('rule outcome')) entries.push({ ...base, op: 'outcome', folder: null, memory_id: null, text: null })
    for (const change of await changedPaths(git, home, cache, commit.parent[0], oid, roots)) {
      const memory = memoryPathKey(change.path)
      if (memory !== undefined && deletion === null) {
        const op = change.after === undefined ? 'delete' : change.before !== undefined ? 'rewrite' : message.startsWith('restore') ? 'restore' : 'add'
        const text = await blob(op === 'delete' ? change.before : change.after)
        entries.push({ ...base, op, folder: memory.folder, memory_id: memory.id, text: text ?? null })
      }
      const tiers = change.path.endsWith('/.tiers') ? tierPathKey(change.path.slice(0, -'/.tiers'.length)) : undefined
      if (tiers !== undefined) {
        const before = parseTierTable((await blob(change.before)) ?? '')
        for (const [id, tier] of parseTierTable((await blob(change.after)) ?? '')) {
          if (before.get(id) !== tier) entries.push({ ...base, op: 'retier', folder: tiers, memory_id: id, text: tier })
        }
      }
      if (change.path.startsWith(`${outcomesFolder}/`) && change.path.endsWith('.jsonl')) {
        const had = ((await blob(change.before)) ?? '').split('\n').filter((line) => line.trim() !== '').length
        const lines = ((await blob(change.after)) ?? '').split('\n').filter((line) => line.trim() !== '')
        for (const line of lines.slice(had)) {
          try {
            outcomes.push({ kind: 'outcome', commit: oid, event: JSON.parse(line) as Extract<TransferItem, { kind: 'outcome' }>['event'] })
          } catch {
            // A line torn by a crash counts for nothing in the ledger either.
          }
        }
      }
    }
    history.push(...entries)
  }
  return { history, outcomes }
}
