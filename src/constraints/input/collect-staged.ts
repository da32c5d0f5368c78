import * as fs from 'node:fs'
import { join, relative } from 'node:path'
import { MkError, isNodeError } from '../../errors.js'
import { resolvesWithin } from '../../fs/path-guard.js'
import { toPosix } from '../../fs/walk.js'
import { gitFolders } from '../../git/git-folders.js'
import { entryTypeBits, readStagedEntries, type StagedIndexEntry } from '../../git/git-index.js'
import { gitObjectId } from '../../git/object-id.js'
import type { IgnoreRules } from './ignore-rules.js'
import { classifyContent, type CheckInput } from './input.js'

const regularFile = 0o100000
const symlink = 0o120000

/** The staged entries; a work tree's own index that does not exist yet holds nothing, but an index named in GIT_INDEX_FILE must exist. */
function readIndex(gitdir: string, named: string | undefined): StagedIndexEntry[] {
  let bytes: Buffer
  try {
    bytes = fs.readFileSync(named ?? join(gitdir, 'index'))
  } catch (error) {
    if (!isNodeError(error) || error.code !== 'ENOENT') throw error
    if (named === undefined) return []
    throw new MkError('INVALID_INPUT', `--staged: GIT_INDEX_FILE names ${named}, which does not exist`, {
      details: { file: named, hint: 'unset GIT_INDEX_FILE outside git hooks, or point it at an existing index' },
    })
  }
  return readStagedEntries(bytes)
}

/**
 * The content staged in the git index, not the working tree: a file changed
 * after `git add` is checked as staged. Unchanged files are read from the
 * working tree (their blob id proves they equal the index); others from git's
 * object store. `indexFile` is the index git names in GIT_INDEX_FILE for a
 * hook, else the work tree's own. The index is read directly, in one pass,
 * without loading isomorphic-git (src/git/git-index.ts).
 */
export async function collectStaged(root: string, gitRoot: string | undefined, rules: IgnoreRules, indexFile: string | undefined): Promise<CheckInput> {
  if (gitRoot === undefined) {
    throw new MkError('INVALID_INPUT', `--staged: ${root} is not inside a git repository`, {
      details: { hint: 'run git init, or check the working tree without --staged' },
    })
  }
  const toWorkspace = toPosix(relative(gitRoot, root))
  const prefix = toWorkspace === '' ? '' : `${toWorkspace}/`
  const entries = new Map<string, StagedIndexEntry>()
  let symlinksSkipped = 0
  const { gitdir, commonDir } = gitFolders(gitRoot)
  for (const file of readIndex(gitdir, indexFile)) {
    const type = file.mode & entryTypeBits
    // Submodules (gitlinks) are commits, not files.
    if ((type !== regularFile && type !== symlink) || !file.path.startsWith(prefix)) continue
    const path = file.path.slice(prefix.length)
    if (rules.configuredIgnores(path)) continue
    if (type === symlink) symlinksSkipped++
    else entries.set(path, file)
  }
  const cache = {}
  const workspaceOnly = [{ path: root, name: 'the workspace' }]
  return {
    mode: 'staged',
    paths: [...entries.keys()].sort(),
    complete: true,
    dependencies: [],
    symlinksSkipped,
    identity: (path) => {
      const entry = entries.get(path)
      return entry === undefined ? undefined : `blob ${entry.oid}`
    },
    async read(path) {
      const entry = entries.get(path)
      if (entry === undefined) throw new MkError('INTERNAL_ERROR', `${path} is not staged`)
      // Never read through a linked folder out of the workspace: the index has the content.
      if (resolvesWithin(workspaceOnly, join(root, path))) {
        try {
          const onDisk = fs.readFileSync(join(root, path))
          if (gitObjectId('blob', onDisk) === entry.oid) return classifyContent(onDisk)
        } catch {
          // Deleted or unreadable in the working tree: the index still has it.
        }
      }
      const { default: git } = await import('isomorphic-git')
      const { blob } = await git.readBlob({ fs, gitdir: commonDir, oid: entry.oid, cache })
      return classifyContent(blob)
    },
  }
}
