import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import git from 'isomorphic-git'
import { withLock } from './lock.js'

const author = { name: 'mk', email: 'mk@localhost' }

/** Paths in the history repository are posix and relative to MK_HOME. */
export interface HistoryChange {
  add?: string[]
  remove?: string[]
  message: string
}

async function ensureRepository(home: string): Promise<void> {
  if (existsSync(join(home, '.git'))) return
  fs.mkdirSync(home, { recursive: true })
  await git.init({ fs, dir: home, defaultBranch: 'main' })
}

/** Record a change of MK_HOME as one commit, so every memory change is audited and can be undone. */
export async function commitChange(home: string, change: HistoryChange): Promise<string> {
  // isomorphic-git only serialises writers inside one process; other mk processes commit here too.
  return withLock(join(home, '.locks', 'history'), async () => {
    await ensureRepository(home)
    for (const filepath of change.add ?? []) await git.add({ fs, dir: home, filepath })
    for (const filepath of change.remove ?? []) await git.remove({ fs, dir: home, filepath })
    return git.commit({ fs, dir: home, message: change.message, author })
  })
}

export interface DeletedVersion {
  /** The file's text just before it was deleted. */
  text: string
  /** The commit message of the deletion. */
  message: string
}

/** The last deletion of `id`: the commit whose message starts with `delete <id>`, and the file it removed or archived. */
export async function findDeletion(home: string, id: string): Promise<DeletedVersion | undefined> {
  if (!existsSync(join(home, '.git'))) return undefined
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
    const source = archived !== undefined ? { oid: entry.oid, filepath: archived } : parent !== undefined && path !== undefined ? { oid: parent, filepath: path } : undefined
    if (source === undefined) continue
    const { blob } = await git.readBlob({ fs, dir: home, ...source })
    return { text: Buffer.from(blob).toString('utf8'), message }
  }
  return undefined
}
