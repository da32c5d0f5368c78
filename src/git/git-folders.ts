import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { MkError } from '../errors.js'

export interface GitFolders {
  /** The work tree's own git folder: its index, its HEAD. */
  gitdir: string
  /** What all work trees share: objects, hooks, config. The main repository's git folder for a linked work tree (`git worktree add`). */
  commonDir: string
}

/** The git folders of a work tree, also when `.git` is a file naming them (linked work trees, submodules). */
export function gitFolders(gitRoot: string): GitFolders {
  const dotGit = join(gitRoot, '.git')
  if (statSync(dotGit).isDirectory()) return { gitdir: dotGit, commonDir: dotGit }
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))
  if (pointer === null)
    throw new MkError('INVALID_INPUT', `${dotGit} does not name a git folder`, {
      details: { file: dotGit, hint: 'repair the work tree with git worktree repair' },
    })
  const gitdir = resolve(gitRoot, pointer[1] as string)
  let commonDir = gitdir
  try {
    commonDir = resolve(gitdir, readFileSync(join(gitdir, 'commondir'), 'utf8').trim())
  } catch {
    // A submodule's or separate git folder (git init --separate-git-dir) keeps its own objects.
  }
  return { gitdir, commonDir }
}
