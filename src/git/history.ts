import { dirname, relative } from 'node:path'
import { toPosix } from '../fs/walk.js'
import { repositoryRootOf } from './head.js'
import { walkFileChanges, type FileChange } from './history-walk.js'
import { GitObjects } from './object-reader.js'

export interface FileVersion {
  /** Short commit id. */
  version: string
  timestamp: string
  author: string
  message: string
}

function versionOf({ commit }: FileChange): FileVersion {
  return {
    version: commit.oid.slice(0, 7),
    timestamp: new Date(commit.authoredAt * 1000).toISOString(),
    author: commit.author,
    message: commit.message.trim(),
  }
}

/**
 * The commits that changed a file, newest first, as `git log --follow` lists them (src/git/history-walk.ts);
 * undefined when the file is not inside a git repository, empty when it was never committed.
 */
export async function fileHistory(absolutePath: string): Promise<FileVersion[] | undefined> {
  const root = repositoryRootOf(dirname(absolutePath))
  if (root === undefined) return undefined
  const path = toPosix(relative(root, absolutePath))
  const changes = await walkFileChanges(await GitObjects.open(root), [path])
  return (changes.get(path) ?? []).map(versionOf)
}

/**
 * fileHistory of many files, keyed by the path given, from one walk of each repository's history. A repository
 * that cannot be read (missing objects, a format isomorphic-git does not know) gives its files undefined, as a
 * file outside any repository: the caller shows what it can.
 */
export async function fileHistories(absolutePaths: readonly string[]): Promise<Map<string, FileVersion[] | undefined>> {
  const byRoot = new Map<string, string[]>()
  const histories = new Map<string, FileVersion[] | undefined>()
  for (const absolutePath of absolutePaths) {
    const root = repositoryRootOf(dirname(absolutePath))
    if (root === undefined) histories.set(absolutePath, undefined)
    else byRoot.set(root, [...(byRoot.get(root) ?? []), absolutePath])
  }
  for (const [root, files] of byRoot) {
    const paths = new Map(files.map((file) => [file, toPosix(relative(root, file))]))
    let changes: Map<string, FileChange[]> | undefined
    try {
      changes = await walkFileChanges(await GitObjects.open(root), [...paths.values()])
    } catch {
      changes = undefined
    }
    for (const [file, path] of paths) histories.set(file, changes === undefined ? undefined : (changes.get(path) ?? []).map(versionOf))
  }
  return histories
}

export interface FileVersionText extends FileVersion {
  text: string
}

/**
 * The file's content at each commit that changed it, newest first (renames followed, as fileHistory does), at
 * most `limit` of them; undefined when the file is not inside a git repository. A commit where the file was
 * deleted is left out.
 */
export async function fileTextOverHistory(absolutePath: string, limit: number): Promise<FileVersionText[] | undefined> {
  const root = repositoryRootOf(dirname(absolutePath))
  if (root === undefined) return undefined
  const path = toPosix(relative(root, absolutePath))
  const objects = await GitObjects.open(root)
  const versions: FileVersionText[] = []
  for (const change of (await walkFileChanges(objects, [path])).get(path) ?? []) {
    if (versions.length === limit) break
    if (change.blob !== undefined) versions.push({ ...versionOf(change), text: new TextDecoder().decode(await objects.blob(change.blob)) })
  }
  return versions
}
