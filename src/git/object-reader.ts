import * as fs from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gitFolders } from './git-folders.js'
import { headCommit } from './head.js'

type Git = typeof import('isomorphic-git').default

export interface Commit {
  oid: string
  tree: string
  parents: readonly string[]
  /** Committer time in seconds: what git orders its walk by. */
  committedAt: number
  authoredAt: number
  author: string
  message: string
}

export interface TreeEntry {
  oid: string
  mode: string
  type: 'blob' | 'tree' | 'commit'
}

export type Tree = ReadonlyMap<string, TreeEntry>

/** Trees kept parsed; past it the cache starts over (a walk reads a commit's trees right after its child's). */
const maxCachedTrees = 4096

/**
 * Reads a repository's commits and trees by id through isomorphic-git, also for a linked work tree
 * (objects in the common git folder, HEAD in the work tree's own). Trees are parsed once and kept.
 */
export class GitObjects {
  private readonly cache = {}
  private readonly trees = new Map<string, Tree>()

  private constructor(
    private readonly git: Git,
    private readonly gitdir: string,
    /** The commit HEAD points at; undefined before the first commit. */
    readonly head: string | undefined,
    /** Commits whose parents a shallow clone lacks: git treats them as roots. */
    readonly shallow: ReadonlySet<string>,
  ) {}

  static async open(gitRoot: string): Promise<GitObjects> {
    const { commonDir } = gitFolders(gitRoot)
    let shallow: string[] = []
    try {
      shallow = (await readFile(join(commonDir, 'shallow'), 'utf8')).split('\n').filter((line) => line !== '')
    } catch {
      // Not a shallow clone.
    }
    const { default: git } = await import('isomorphic-git')
    return new GitObjects(git, commonDir, headCommit(gitRoot), new Set(shallow))
  }

  async commit(oid: string): Promise<Commit> {
    const { commit } = await this.git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    return {
      oid,
      tree: commit.tree,
      parents: this.shallow.has(oid) ? [] : commit.parent,
      committedAt: commit.committer.timestamp,
      authoredAt: commit.author.timestamp,
      author: commit.author.name,
      message: commit.message,
    }
  }

  async tree(oid: string): Promise<Tree> {
    const cached = this.trees.get(oid)
    if (cached !== undefined) return cached
    const { tree } = await this.git.readTree({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    const entries: Tree = new Map(tree.map((entry) => [entry.path, { oid: entry.oid, mode: entry.mode, type: entry.type }]))
    if (this.trees.size >= maxCachedTrees) this.trees.clear()
    this.trees.set(oid, entries)
    return entries
  }

  /** The entry at a slash-separated path ('' is the root tree itself), reading only the trees on the way. */
  async entryAt(rootTree: string, path: string): Promise<TreeEntry | undefined> {
    let entry: TreeEntry | undefined = { oid: rootTree, mode: '040000', type: 'tree' }
    for (const name of path === '' ? [] : path.split('/')) {
      if (entry?.type !== 'tree') return undefined
      entry = (await this.tree(entry.oid)).get(name)
    }
    return entry
  }

  async blob(oid: string): Promise<Uint8Array> {
    const { blob } = await this.git.readBlob({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    return blob
  }
}
