import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { commitPaths } from '../git/commit.js'
import { withLock } from '../fs/lock.js'
import type { GitIdentity } from '../git/identity.js'

/** Paths in the history repository are posix and relative to MK_HOME. */
export interface HistoryChange {
  add?: string[]
  remove?: string[]
  message: string
  /** The person the commit names; mk itself when git knows nobody. */
  author?: GitIdentity | undefined
}

/** Record a change of MK_HOME as one commit, so every memory change is audited and can be undone. */
export async function commitChange(home: string, change: HistoryChange): Promise<string> {
  // Other mk processes commit here too: one at a time.
  return withLock(join(home, '.locks', 'history'), { what: 'the memory history', onBusy: 'wait' }, () =>
    commitPaths(home, {
      add: change.add ?? [],
      remove: change.remove ?? [],
      message: change.message,
      ...(change.author === undefined ? {} : { author: change.author }),
    }),
  )
}

export interface DeletedVersion {
  /** The file's text just before it was deleted. */
  text: string
  /** The commit message of the deletion. */
  message: string
}

/**
 * The history a tenant brought along when `mk store import` moved it into files (from PostgreSQL,
 * or another files store): the source's changes with their commit ids and times, one JSON line each.
 */
export const importedHistoryFile = 'imported-history.jsonl'

/** The last deletion of `id` the imported history records, for a memory deleted before the tenant moved here. */
function importedDeletion(home: string, id: string): DeletedVersion | undefined {
  const archive = join(home, importedHistoryFile)
  if (!existsSync(archive)) return undefined
  let found: DeletedVersion | undefined
  for (const line of fs.readFileSync(archive, 'utf8').split('\n')) {
    if (!line.includes(id)) continue
    const entry = JSON.parse(line) as { kind?: unknown; op?: unknown; memory_id?: unknown; text?: unknown; message?: unknown }
    if (entry.kind === 'history' && entry.op === 'delete' && entry.memory_id === id && typeof entry.text === 'string' && typeof entry.message === 'string') {
      found = { text: entry.text, message: entry.message }
    }
  }
  return found
}

/** The last deletion of `id`: the commit whose message starts with `delete <id>`, and the file it removed or archived; else the imported history's. */
export async function findDeletion(home: string, id: string): Promise<DeletedVersion | undefined> {
  return (await committedDeletion(home, id)) ?? importedDeletion(home, id)
}

async function committedDeletion(home: string, id: string): Promise<DeletedVersion | undefined> {
  if (!existsSync(join(home, '.git'))) return undefined
  const { default: git } = await import('isomorphic-git')
  let commits: Awaited<ReturnType<typeof git.log>>
  try {
    commits = await git.log({ fs, dir: home })
  } catch {
    return undefined
  }
  for (const entry of commits) {
    const message = entry.commit.message
    if (!message.startsWith(`delete ${id}`)) continue
    const path = /^path: (.+)$/m.exec(message)?.[1]
    const archived = /^archived: (.+)$/m.exec(message)?.[1]
    const parent = entry.commit.parent[0]
    const source =
      archived !== undefined ? { oid: entry.oid, filepath: archived } : parent !== undefined && path !== undefined ? { oid: parent, filepath: path } : undefined
    if (source === undefined) continue
    const { blob } = await git.readBlob({ fs, dir: home, ...source })
    return { text: Buffer.from(blob).toString('utf8'), message }
  }
  return undefined
}
