import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isNodeError } from '../errors.js'
import { removeAbandonedTemporaryFiles, writeFileAtomic } from '../fs/atomic-write.js'

/**
 * A memory change between writing a file and committing it, recorded before it starts so that
 * the next mk process (under the same folder lock) can finish it after a crash. One small JSON
 * file per change in `$MK_HOME/.pending/`, removed when the change is committed.
 */
export interface PendingChange {
  /** `rewrite`: several files of the folder rewritten together (rehydrate, consolidate, maintain), committed as one. */
  op: 'add' | 'delete' | 'rewrite'
  id: string
  /** The memory folder's key and whether it is private (its files are committed in MK_HOME). */
  folderKey: string
  private: boolean
  /** Absolute path of the memory file (of a rewrite: its first). */
  file: string
  /** A rewrite: every file it writes (absolute paths) and the message of its commit. */
  files?: string[]
  message?: string
}

/** One folder per memory folder: changes are finished under that folder's lock, never another's. */
function pendingDir(home: string, folderKey: string): string {
  return join(home, '.pending', folderKey.replaceAll('/', '-'))
}

/** Record a change about to happen; the returned function marks it done. */
export async function markPending(home: string, change: PendingChange): Promise<() => Promise<void>> {
  const path = join(pendingDir(home, change.folderKey), `${change.id}.${change.op}.json`)
  await writeFileAtomic(path, JSON.stringify(change))
  return () => rm(path, { force: true })
}

/**
 * Changes a crashed process left unfinished in one memory folder, oldest first by name. A marker
 * whose writer was killed mid-write never became a change (its temporary file is removed): the
 * change it announced had not started.
 */
export async function pendingChanges(home: string, folderKey: string): Promise<{ change: PendingChange; done: () => Promise<void> }[]> {
  await removeAbandonedTemporaryFiles(pendingDir(home, folderKey))
  let names: string[]
  try {
    names = await readdir(pendingDir(home, folderKey))
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return []
    throw error
  }
  const found: { change: PendingChange; done: () => Promise<void> }[] = []
  for (const name of names.filter((candidate) => candidate.endsWith('.json')).sort()) {
    const path = join(pendingDir(home, folderKey), name)
    const change = JSON.parse(await readFile(path, 'utf8')) as PendingChange
    found.push({ change, done: () => rm(path, { force: true }) })
  }
  return found
}
