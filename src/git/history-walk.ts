import { posix } from 'node:path'
import type { Commit, GitObjects, TreeEntry } from './object-reader.js'

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

/** Whether git's exact rename detection pairs these: the same blob, and the same mode unless both are regular files. */
function sameContent(a: TreeEntry, b: TreeEntry): boolean {
  return a.type === 'blob' && b.type === 'blob' && a.oid === b.oid && (a.mode === b.mode || (a.mode.startsWith('100') && b.mode.startsWith('100')))
}

/**
 * Where a file the commit added was in its parent, if it was renamed or copied there unchanged: the same blob in
 * one of the parent's folders on the way to the file (its own folder, then each one above). A source the commit
 * removed (a rename) beats one it kept (a copy), then one of the same name, then the nearer folder.
 */
async function renameSource(objects: GitObjects, commitTree: string, parentTree: string, path: string, added: TreeEntry): Promise<string | undefined> {
  let best: { path: string; score: number } | undefined
  for (let folder = posix.dirname(path); ; folder = posix.dirname(folder)) {
    const inParent = await objects.entryAt(parentTree, folder === '.' ? '' : folder)
    if (inParent?.type === 'tree') {
      for (const [name, entry] of await objects.tree(inParent.oid)) {
        const candidate = folder === '.' ? name : `${folder}/${name}`
        if (candidate === path || !sameContent(entry, added)) continue
        const removed = (await objects.entryAt(commitTree, candidate)) === undefined
        const score = (removed ? 2 : 0) + (name === posix.basename(path) ? 1 : 0)
        if (best === undefined || score > best.score) best = { path: candidate, score }
      }
    }
    if (folder === '.') return best?.path
  }
}

/**
 * The commits that changed each file, newest first, from one walk of the history from HEAD, as
 * `git log --follow -- <path>` lists them for each path alone. Every commit reachable from HEAD is walked
 * once, newest committed first; a commit that is not a merge is compared with its parent (a root commit with
 * nothing) and kept for each file whose blob or mode differs: added, modified or deleted. Merge commits are
 * never listed and their parents are all walked, as git log --follow does: the change a branch brought is
 * listed at the commit on the branch that made it, and a conflict resolved in a merge is not listed. Where a
 * commit added the file, an unchanged rename or copy is followed: older commits are read at the old path.
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
