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

export interface FileVersionText extends FileVersion {
  text: string
}

/** The histories of some files from one walk of each repository's history, the text of their versions read on demand. */
export interface FilesHistory {
  /** The file's fileHistory; undefined also where its repository could not be read (missing objects, a format isomorphic-git does not know). */
  versions(absolutePath: string): FileVersion[] | undefined
  /** The file's text at each commit that changed it, newest first, at most `limit` of them, deletions left out; undefined as versions is. */
  texts(absolutePath: string, limit: number): Promise<FileVersionText[] | undefined>
}

interface Walked {
  objects: GitObjects
  changes: FileChange[]
}

/** The history of each of the files, asked for together so that each repository's history is walked once. */
export async function filesHistory(absolutePaths: readonly string[]): Promise<FilesHistory> {
  const byRoot = new Map<string, string[]>()
  for (const absolutePath of absolutePaths) {
    const root = repositoryRootOf(dirname(absolutePath))
    if (root !== undefined) byRoot.set(root, [...(byRoot.get(root) ?? []), absolutePath])
  }
  const walked = new Map<string, Walked>()
  for (const [root, files] of byRoot) {
    const paths = new Map(files.map((file) => [file, toPosix(relative(root, file))]))
    try {
      const objects = await GitObjects.open(root)
      const changes = await walkFileChanges(objects, [...paths.values()])
      for (const [file, path] of paths) walked.set(file, { objects, changes: changes.get(path) ?? [] })
    } catch {
      // The repository's files are left without history; the other repositories' still have theirs.
    }
  }
  return {
    versions: (absolutePath) => walked.get(absolutePath)?.changes.map(versionOf),
    texts: async (absolutePath, limit) => {
      const file = walked.get(absolutePath)
      if (file === undefined) return undefined
      const texts: FileVersionText[] = []
      for (const change of file.changes) {
        if (texts.length === limit) break
        if (change.blob !== undefined) texts.push({ ...versionOf(change), text: new TextDecoder().decode(await file.objects.blob(change.blob)) })
      }
      return texts
    },
  }
}
