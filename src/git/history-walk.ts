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

/** The files a commit removed, by path: the parent's blobs it no longer has at that path, read only in the folders it changed. */
async function removedFiles(objects: GitObjects, before: string, after: string | undefined, folder: string, into: Map<string, TreeEntry>): Promise<void> {
  const now = after === undefined ? undefined : await objects.tree(after)
  for (const [name, entry] of await objects.tree(before)) {
    const kept = now?.get(name)
    if (kept?.oid === entry.oid) continue
    const path = folder === '' ? name : `${folder}/${name}`
    if (entry.type === 'tree') await removedFiles(objects, entry.oid, kept?.type === 'tree' ? kept.oid : undefined, path, into)
    else if (entry.type === 'blob' && kept?.type !== 'blob') into.set(path, entry)
  }
}

/** How many leading folders two paths share: the nearer of two equal sources is the one in the closer folder. */
function sharedFolders(a: string, b: string): number {
  const [left, right] = [a.split('/').slice(0, -1), b.split('/').slice(0, -1)]
  let shared = 0
  while (shared < left.length && left[shared] === right[shared]) shared++
  return shared
}

/** Whether the first ranking is higher at the first place the two differ. */
function outranks(a: readonly number[], b: readonly number[]): boolean {
  const at = a.findIndex((value, index) => value !== b[index])
  return at !== -1 && (a[at] as number) > (b[at] as number)
}

/** The blobs of the parent's folders on the way to a path: its own folder, then each one above. */
async function blobsOnTheWay(objects: GitObjects, parentTree: string, path: string, into: Map<string, TreeEntry>): Promise<void> {
  for (let folder = posix.dirname(path); ; folder = posix.dirname(folder)) {
    const inParent = await objects.entryAt(parentTree, folder === '.' ? '' : folder)
    if (inParent?.type === 'tree') {
      for (const [name, entry] of await objects.tree(inParent.oid)) if (entry.type === 'blob') into.set(folder === '.' ? name : `${folder}/${name}`, entry)
    }
    if (folder === '.') break
  }
}

/**
 * Where a file the commit added was in its parent, as git --follow finds it, among the files the commit removed
 * anywhere (found in the folders it changed) and the files of the parent's folders on the way to the file. First
 * the same blob: a source the commit removed (a rename) beats one it kept (a copy), then one of the same name,
 * then the one in the nearer folder. Else the removed file that git's rename detection scores most similar, at
 * least 50 %. Git also takes kept files elsewhere as sources; reading the parent's whole tree for that would cost
 * a whole-tree read per added file.
 */
async function renameSource(objects: GitObjects, commitTree: string, parentTree: string, path: string, added: TreeEntry): Promise<string | undefined> {
  const removed = new Map<string, TreeEntry>()
  await removedFiles(objects, parentTree, commitTree, '', removed)
  const candidates = new Map(removed)
  await blobsOnTheWay(objects, parentTree, path, candidates)
  let exact: { path: string; rank: number[] } | undefined
  for (const [candidate, entry] of candidates) {
    if (candidate === path || !sameContent(entry, added)) continue
    const rank = [removed.has(candidate) ? 1 : 0, posix.basename(candidate) === posix.basename(path) ? 1 : 0, sharedFolders(candidate, path)]
    if (exact === undefined || outranks(rank, exact.rank)) exact = { path: candidate, rank }
  }
  if (exact !== undefined || !regularFile(added)) return exact?.path
  const content = await objects.blob(added.oid)
  let similar: { path: string; score: number } | undefined
  for (const [source, entry] of removed) {
    if (!regularFile(entry)) continue
    const score = similarityScore(await objects.blob(entry.oid), content)
    if (score >= minimumRenameScore && score > (similar?.score ?? 0)) similar = { path: source, score }
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
 * Only the trees on the way to the files are read, and, where a commit added one, the folders it changed.
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
