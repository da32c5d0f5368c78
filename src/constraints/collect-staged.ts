import * as fs from 'node:fs'
import { join, relative } from 'node:path'
import git from 'isomorphic-git'
import { MkError } from '../errors.js'
import { toPosix } from '../fs/walk.js'
import type { IgnoreRules } from './ignore-rules.js'
import { classifyContent, type CheckInput } from './input.js'
import { gitObjectId } from '../git/object-id.js'

const symlinkMode = 0o120000


interface StagedEntry {
  oid: string
  /** Path relative to the git root, as the index stores it. */
  gitPath: string
}

/**
 * The content staged in the git index, not the working tree: a file changed
 * after `git add` is checked as staged. Unchanged files are read from the
 * working tree (their blob id proves they equal the index); others from git's object store.
 */
export async function collectStaged(root: string, gitRoot: string | undefined, rules: IgnoreRules): Promise<CheckInput> {
  if (gitRoot === undefined) {
    throw new MkError('INVALID_INPUT', `--staged: ${root} is not inside a git repository`, { details: { hint: 'run git init, or check the working tree without --staged' } })
  }
  const toWorkspace = toPosix(relative(gitRoot, root))
  const prefix = toWorkspace === '' ? '' : `${toWorkspace}/`
  const entries = new Map<string, StagedEntry>()
  let symlinksSkipped = 0
  const cache = {}
  await git.walk({
    fs,
    dir: gitRoot,
    cache,
    trees: [git.STAGE()],
    map: async (gitPath, [entry]) => {
      if (entry === null || entry === undefined || gitPath === '.') return true
      if ((await entry.type()) !== 'blob') return true
      if (!gitPath.startsWith(prefix)) return true
      const path = gitPath.slice(prefix.length)
      if (rules.configuredIgnores(path)) return true
      if ((await entry.mode()) === symlinkMode) symlinksSkipped++
      else entries.set(path, { oid: await entry.oid(), gitPath })
      return true
    },
  })
  return {
    mode: 'staged',
    paths: [...entries.keys()].sort(),
    complete: true,
    dependencies: [],
    symlinksSkipped,
    async read(path) {
      const entry = entries.get(path)
      if (entry === undefined) throw new MkError('INTERNAL_ERROR', `${path} is not staged`)
      try {
        const onDisk = fs.readFileSync(join(root, path))
        if (gitObjectId('blob', onDisk) === entry.oid) return classifyContent(onDisk)
      } catch {
        // Deleted or unreadable in the working tree: the index still has it.
      }
      const { blob } = await git.readBlob({ fs, dir: gitRoot, oid: entry.oid, cache })
      return classifyContent(blob)
    },
  }
}
