import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { walkFiles } from '../fs/walk.js'

// Keep in step with the loader (src/knowledge/load.ts): the files it parses are the files sync tracks.
const notKnowledge = /^(readme|index|changelog|license|.*template.*)\.md$/i

export function isKnowledgeFile(relativePath: string): boolean {
  return relativePath.toLowerCase().endsWith('.md') && !notKnowledge.test(basename(relativePath))
}

/** The id git gives this content as a blob, so folder sources and git sources compare the same way. */
export function gitBlobId(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex')
}

/** Knowledge files of a plain folder: path (relative to it, posix) -> content hash. `skip` is a folder left out (the memory store). */
export async function hashFolder(directory: string, skip: string | undefined): Promise<Map<string, string>> {
  const files = await walkFiles(directory, {
    include: (path, isDirectory) => {
      const absolute = resolve(directory, path)
      if (skip !== undefined && (absolute === skip || absolute.startsWith(`${skip}/`))) return false
      return isDirectory || isKnowledgeFile(path)
    },
  })
  const hashes = await Promise.all(files.map(async (file) => [file, gitBlobId(await readFile(resolve(directory, file)))] as const))
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
