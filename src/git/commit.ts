import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { commitDirectly } from './direct-commit.js'
import { UnsupportedRepository } from './git-index.js'

export interface PathsCommit {
  /** Posix paths relative to the repository whose current content is committed. */
  add: readonly string[]
  /** Posix paths removed from the work tree whose removal is committed. */
  remove: readonly string[]
  message: string
  author?: { name: string; email: string }
}

const mkAuthor = { name: 'mk', email: 'mk@localhost' }

/**
 * Commit the given paths on top of HEAD, creating the repository (branch main) if needed.
 * Callers serialise commits to one repository. The direct writer handles the
 * repositories mk creates; isomorphic-git takes any other (see ADR 0007).
 */
export async function commitPaths(dir: string, change: PathsCommit): Promise<string> {
  const author = change.author ?? mkAuthor
  try {
    return commitDirectly(dir, { add: change.add, remove: change.remove, message: change.message, author })
  } catch (error) {
    if (!(error instanceof UnsupportedRepository)) throw error
  }
  const { default: git } = await import('isomorphic-git')
  const cache = {}
  if (!existsSync(join(dir, '.git'))) await git.init({ fs, dir, defaultBranch: 'main' })
  for (const filepath of change.add) await git.add({ fs, dir, filepath, cache })
  for (const filepath of change.remove) await git.remove({ fs, dir, filepath, cache })
  return git.commit({ fs, dir, message: change.message, author, cache })
}
