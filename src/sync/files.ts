import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { listKnowledgeFiles } from '../knowledge/files.js'
import { gitObjectId } from '../git/object-id.js'

/** Knowledge files of a plain folder: path (relative to it, posix) -> content hash. */
export async function hashFolder(workspace: Workspace, directory: string): Promise<Map<string, string>> {
  const files = listKnowledgeFiles(workspace, directory)
  const hashes = await Promise.all(files.map(async (file) => [file, gitObjectId('blob', await readFile(resolve(directory, file)))] as const))
  return new Map(hashes)
}

export interface FileDelta {
  added: string[]
  updated: string[]
  deleted: string[]
  unchanged: string[]
}

/** Which files changed since the last sync, by content hash. */
export function diffFiles(previous: Readonly<Record<string, { hash: string }>>, current: ReadonlyMap<string, string>): FileDelta {
  const delta: FileDelta = { added: [], updated: [], deleted: [], unchanged: [] }
  for (const [path, hash] of current) {
    const before = previous[path]
    if (before === undefined) delta.added.push(path)
    else if (before.hash !== hash) delta.updated.push(path)
    else delta.unchanged.push(path)
  }
  for (const path of Object.keys(previous)) if (!current.has(path)) delta.deleted.push(path)
  return delta
}
