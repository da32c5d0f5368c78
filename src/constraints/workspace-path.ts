import { isAbsolute, relative, resolve } from 'node:path'
import { MkError } from '../errors.js'
import { toPosix } from '../fs/walk.js'

/** A workspace-relative posix path, or undefined when the path points outside the workspace. */
export function insideWorkspace(root: string, path: string, base: string = root): string | undefined {
  const relativePath = toPosix(relative(root, resolve(base, path)))
  if (relativePath === '' || relativePath === '..' || relativePath.startsWith('../') || isAbsolute(relativePath)) return undefined
  return relativePath
}

/** Like insideWorkspace, but a path outside is an input error naming where it came from. */
export function requireInsideWorkspace(root: string, path: string, origin: string, base: string = root): string {
  const inside = insideWorkspace(root, path, base)
  if (inside === undefined) {
    throw new MkError('INVALID_INPUT', `${origin}: path ${JSON.stringify(path)} is outside the workspace ${root}`, {
      details: { path, hint: 'give paths inside the workspace, relative to its root' },
    })
  }
  return inside
}

/** Why a glob could reach outside the workspace (absolute, or a `..` segment), or undefined when it cannot. */
export function globEscapeError(glob: string): string | undefined {
  if (glob.startsWith('/') || /^[a-z]:[\\/]/i.test(glob)) return `glob ${JSON.stringify(glob)} is absolute; globs are relative to the workspace root`
  if (glob.split(/[\\/]/).includes('..')) return `glob ${JSON.stringify(glob)} has a ".." segment; globs cannot reach outside the workspace`
  return undefined
}
