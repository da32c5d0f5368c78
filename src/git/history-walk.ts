import { posix } from 'node:path'
import type { Commit, GitObjects, TreeEntry } from './object-reader.js'
import { minimumRenameScore, similarityScore } from './similarity.js'

export interface FileChange {
  commit: Commit
  /** The file's blob after the commit; undefined where the commit deleted it. */
  blob: string | undefined
}

interface Followed {
  /** The file's path at the commits being walked; it changes where the file was renamed. */
  path: string
  changes: FileChange[]
}

/** Commits waiting to be walked, newest committed first; equal times leave in the order they came, as in git's walk. */
class CommitQueue {
  private readonly commits: Commit[] = []

  push(commit: Commit): void {
    let at = this.commits.length
    while (at > 0 && (this.commits[at - 1] as Commit).committedAt < commit.committedAt) at--
    this.commits.splice(at, 0, commit)
  }

  pop(): Commit | undefined {
    return this.commits.shift()
  }
}

function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a?.oid === b?.oid && a?.mode === b?.mode
}

const regularFile = (entry: TreeEntry): boolean => entry.type === 'blob' && entry.mode.startsWith('100')

/** Whether git's exact rename detection pairs these: the same blob, and the same mode unless both are regular files. */
function sameContent(a: TreeEntry, b: TreeEntry): boolean {
  return a.type === 'blob' && b.type === 'blob' && a.oid === b.oid && (a.mode === b.mode || (regularFile(a) && regularFile(b)))
}

/**
 * Where a file the commit added was in its parent, as git --follow finds it, looking only in the parent's folders
 * on the way to the file (its own folder, then each one above). First the same blob: a source the commit removed
 * (a rename) beats one it kept (a copy), then one of the same name, then the nearer folder. Else the file the
 * commit removed that git's rename detection scores most similar, at least 50 %.
 */
async function renameSource(objects: GitObjects, commitTree: string, parentTree: string, path: string, added: TreeEntry): Promise<string | undefined> {
  let exact: { path: string; score: number } | undefined
  const removed: { path: string; blob: string }[] = []
  for (let folder = posix.dirname(path); ; folder = posix.dirname(folder)) {
    const inParent = await objects.entryAt(parentTree, folder === '.' ? '' : folder)
    if (inParent?.type === 'tree') {
      for (const [name, entry] of await objects.tree(inParent.oid)) {
        const candidate = folder === '.' ? name : `${folder}/${name}`
        if (candidate === path || entry.type !== 'blob') continue
        const gone = (await objects.entryAt(commitTree, candidate)) === undefined
        if (sameContent(entry, added)) {
          const score = (gone ? 2 : 0) + (name === posix.basename(path) ? 1 : 0)
          if (exact === undefined || score > exact.score) exact = { path: candidate, score }
        } else if (gone && regularFile(entry) && regularFile(added)) removed.push({ path: candidate, blob: entry.oid })
      }
    }
    if (folder === '.') break
  }
  if (exact !== undefined || removed.length === 0) return exact?.path
  const content = await objects.blob(added.oid)
  let similar: { path: string; score: number } | undefined
  for (const source of removed) {
    const score = similarityScore(await objects.blob(source.blob), content)
    if (score >= minimumRenameScore && score > (similar?.score ?? 0)) similar = { path: source.path, score }
  }
  return similar?.path
}

/**
 * The commits that changed each file, newest first, from one walk of the history from HEAD, as
 * `git log --follow -- <path>` lists them for each path alone. Every commit reachable from HEAD is walked
 * once, newest committed first; a commit that is not a merge is compared with its parent (a root commit with
 * nothing) and kept for each file whose blob or mode differs: added, modified or deleted. Merge commits are
 * never listed and their parents are all walked, as git log --follow does: the change a branch brought is
 * listed at the commit on the branch that made it, and a conflict resolved in a merge is not listed. Where a
 * commit added the file, a rename or copy is followed (renameSource): older commits are read at the old path.
 * Only the trees on the way to the files (and their folders, when looking for a rename) are read.
 */
export async function walkFileChanges(objects: GitObjects, paths: readonly string[]): Promise<Map<string, FileChange[]>> {
  const followed = new Map<string, Followed>(paths.map((path) => [path, { path, changes: [] }]))
  if (objects.head === undefined) return new Map(paths.map((path) => [path, []]))
  const treeOf = new Map<string, string>()
  const queue = new CommitQueue()
  const enqueue = async (oid: string): Promise<void> => {
    if (treeOf.has(oid)) return
    const commit = await objects.commit(oid)
    treeOf.set(oid, commit.tree)
    queue.push(commit)
  }
  await enqueue(objects.head)
  for (let commit = queue.pop(); commit !== undefined; commit = queue.pop()) {
    for (const parent of commit.parents) await enqueue(parent)
    if (commit.parents.length > 1) continue
    const parentTree = commit.parents.length === 0 ? undefined : treeOf.get(commit.parents[0] as string)
    for (const file of followed.values()) {
      const after = await objects.entryAt(commit.tree, file.path)
      const before = parentTree === undefined ? undefined : await objects.entryAt(parentTree, file.path)
      if (sameEntry(after, before)) continue
      file.changes.push({ commit, blob: after?.type === 'blob' ? after.oid : undefined })
      if (after !== undefined && before === undefined && parentTree !== undefined) {
        file.path = (await renameSource(objects, commit.tree, parentTree, file.path, after)) ?? file.path
      }
    }
  }
  return new Map([...followed].map(([path, file]) => [path, file.changes]))
}
