import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { localChanges } from '../git/mirror.js'

/** What the MK_HOME history check found; doctor.ts turns it into a check. */
export interface HistoryState {
  /** Memory files (posix, relative to MK_HOME) that differ from the last commit. */
  uncommitted: string[]
  /** Changes a stopped mk process left for the next write of their folder to finish (.pending markers). */
  interrupted: number
}

const memoryFile = /^memory\/(?:.+\/)?mem_[0-9A-Za-z]+\.md$/

async function pendingMarkers(home: string): Promise<number> {
  const root = join(home, '.pending')
  if (!existsSync(root)) return 0
  let count = 0
  for (const folder of await readdir(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue
    count += (await readdir(join(root, folder.name))).filter((name) => name.endsWith('.json') && !name.startsWith('.')).length
  }
  return count
}

/**
 * Memory files of MK_HOME that are not committed: a process stopped between a write and its commit
 * (a kill, a crash, a full disk), or an edit by hand. Undefined when MK_HOME has no history yet.
 */
export async function historyState(workspace: Workspace): Promise<HistoryState | undefined> {
  if (!existsSync(join(workspace.mkHome, '.git'))) return undefined
  const changed = await localChanges(workspace.mkHome)
  return { uncommitted: changed.filter((path) => memoryFile.test(path)).sort(), interrupted: await pendingMarkers(workspace.mkHome) }
}
