import * as fs from 'node:fs'
import { join, relative } from 'node:path'
import { MkError, isNodeError } from '../../errors.js'
import { resolvesWithin } from '../../fs/path-guard.js'
import { toPosix } from '../../fs/walk.js'
import { gitFolders } from '../../git/git-folders.js'
import { entryTypeBits, readStagedEntries } from '../../git/git-index.js'
import { gitObjectId } from '../../git/object-id.js'
import type { IgnoreRules } from './ignore-rules.js'
import { classifyContent, type CheckInput } from './input.js'

const regularFile = 0o100000
const symlink = 0o120000

/** The git index a staged check reads, and where its paths meet the workspace. */
export interface StagedIndex {
  bytes: Buffer
  /** The workspace's folder in the repository, with a trailing slash ('' at the git root). */
  prefix: string
  /** Where git keeps its objects. */
  commonDir: string
}

/** The index bytes; a work tree's own index that does not exist yet holds nothing, but an index named in GIT_INDEX_FILE must exist. */
function readIndexBytes(gitdir: string, named: string | undefined): Buffer {
  try {
    return fs.readFileSync(named ?? join(gitdir, 'index'))
  } catch (error) {
    if (!isNodeError(error) || error.code !== 'ENOENT') throw error
    if (named === undefined) return emptyIndex
    throw new MkError('INVALID_INPUT', `--staged: GIT_INDEX_FILE names ${named}, which does not exist`, {
      details: { file: named, hint: 'unset GIT_INDEX_FILE outside git hooks, or point it at an existing index' },
    })
  }
}

/** A version 2 index of no entries: what a repository without an index has staged. */
const emptyIndex = Buffer.concat([Buffer.from('DIRC', 'latin1'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]), Buffer.alloc(20)])

/** `indexFile` is the index git names in GIT_INDEX_FILE for a hook, else the work tree's own. */
export function readStagedIndex(root: string, gitRoot: string | undefined, indexFile: string | undefined): StagedIndex {
  if (gitRoot === undefined) {
    throw new MkError('INVALID_INPUT', `--staged: ${root} is not inside a git repository`, {
      details: { hint: 'run git init, or check the working tree without --staged' },
    })
  }
  const toWorkspace = toPosix(relative(gitRoot, root))
  const { gitdir, commonDir } = gitFolders(gitRoot)
  return { bytes: readIndexBytes(gitdir, indexFile), prefix: toWorkspace === '' ? '' : `${toWorkspace}/`, commonDir }
}

/**
 * What the check makes of an index entry: a file to check, a symbolic link
 * (counted, never followed), or nothing (a submodule, outside the workspace,
 * ignored by check.ignore). `path` is workspace-relative.
 */
export function stagedEntryKind(gitPath: string, mode: number, prefix: string, rules: IgnoreRules): { kind: 'file' | 'symlink'; path: string } | undefined {
  const type = mode & entryTypeBits
  // Submodules (gitlinks) are commits, not files.
  if ((type !== regularFile && type !== symlink) || !gitPath.startsWith(prefix)) return undefined
  const path = gitPath.slice(prefix.length)
  if (rules.configuredIgnores(path)) return undefined
  return { kind: type === symlink ? 'symlink' : 'file', path }
}

/**
 * The staged content of the files given (workspace path to blob id), not the
 * working tree's: a file changed after `git add` is checked as staged.
 * Unchanged files are read from the working tree (their blob id proves they
 * equal the index); others from git's object store.
 */
export function stagedInput(
  root: string,
  index: StagedIndex,
  blobs: ReadonlyMap<string, string>,
  shape: { paths: string[]; complete: boolean; symlinksSkipped: number },
): CheckInput {
  const cache = {}
  const workspaceOnly = [{ path: root, name: 'the workspace' }]
  return {
    mode: 'staged',
    ...shape,
    dependencies: [],
    identity: (path) => {
      const oid = blobs.get(path)
      return oid === undefined ? undefined : `blob ${oid}`
    },
    async read(path) {
      const oid = blobs.get(path)
      if (oid === undefined) throw new MkError('INTERNAL_ERROR', `${path} is not staged`)
      // Never read through a linked folder out of the workspace: the index has the content.
      if (resolvesWithin(workspaceOnly, join(root, path))) {
        try {
          const onDisk = fs.readFileSync(join(root, path))
          if (gitObjectId('blob', onDisk) === oid) return classifyContent(onDisk)
        } catch {
          // Deleted or unreadable in the working tree: the index still has it.
        }
      }
      const { default: git } = await import('isomorphic-git')
      const { blob } = await git.readBlob({ fs, gitdir: index.commonDir, oid, cache })
      return classifyContent(blob)
    },
  }
}

/**
 * Every file staged in the git index. The index is read directly, in one
 * pass, without loading isomorphic-git (src/git/git-index.ts).
 */
export function collectStaged(root: string, index: StagedIndex, rules: IgnoreRules): CheckInput {
  const blobs = new Map<string, string>()
  let symlinksSkipped = 0
  for (const entry of readStagedEntries(index.bytes)) {
    const staged = stagedEntryKind(entry.path, entry.mode, index.prefix, rules)
    if (staged?.kind === 'symlink') symlinksSkipped++
    else if (staged !== undefined) blobs.set(staged.path, entry.oid)
  }
  return stagedInput(root, index, blobs, { paths: [...blobs.keys()].sort(), complete: true, symlinksSkipped })
}
