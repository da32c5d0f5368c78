import { realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { MkError, isNodeError } from '../errors.js'
import { toPosix } from './walk.js'

/**
 * The one guard for paths a user or a config file names (check --files,
 * .mkrc check.baseline / check.waivers / memory.dir, knowledge source paths mk
 * writes to): mk reads and writes them only inside the folders it owns, the
 * workspace and MK_HOME. Paths are judged twice: as written (no `..` out) and
 * as resolved on disk (no symbolic link out).
 */

/** A workspace-relative posix path, or undefined when the path (as written) points outside the workspace. */
export function insideWorkspace(root: string, path: string, base: string = root): string | undefined {
  const relativePath = toPosix(relative(root, resolve(base, path)))
  if (relativePath === '' || relativePath === '..' || relativePath.startsWith('../') || isAbsolute(relativePath)) return undefined
  return relativePath
}

function within(folder: string, path: string): boolean {
  const relativePath = relative(folder, path)
  return relativePath === '' || (relativePath !== '..' && !relativePath.startsWith(`..${sep}`) && !isAbsolute(relativePath))
}

/** The path with every symbolic link resolved; a part that does not exist yet (a file about to be written) is kept as written. */
export function realPath(path: string): string {
  try {
    return realpathSync.native(path)
  } catch (error) {
    if (!isNodeError(error) || (error.code !== 'ENOENT' && error.code !== 'ENOTDIR')) throw error
    const parent = dirname(path)
    return parent === path ? path : join(realPath(parent), basename(path))
  }
}

/** A folder mk may read or write in, and what to call it in an error. */
export interface AllowedFolder {
  path: string
  name: string
}

/** Where mk may write: the workspace and MK_HOME. */
export function writableFolders(root: string, mkHome: string): AllowedFolder[] {
  return [
    { path: root, name: 'the workspace' },
    { path: mkHome, name: 'MK_HOME' },
  ]
}

/** Whether the absolute path, resolved on disk, lies within one of the folders (also resolved). */
export function resolvesWithin(folders: readonly AllowedFolder[], absolutePath: string): boolean {
  const real = realPath(absolutePath)
  return folders.some((folder) => within(realPath(folder.path), real))
}

/** Like resolvesWithin, but a path outside is an input error naming where it came from and where it leads. */
export function requireResolvesWithin(folders: readonly AllowedFolder[], absolutePath: string, origin: string): void {
  if (resolvesWithin(folders, absolutePath)) return
  const names = folders.map((folder) => `${folder.name} ${folder.path}`).join(' or ')
  throw new MkError(
    'INVALID_INPUT',
    `${origin}: ${absolutePath} resolves to ${realPath(absolutePath)}, outside ${names}; mk does not follow paths or symbolic links out of them`,
    {
      details: {
        path: absolutePath,
        resolved: realPath(absolutePath),
        hint: `use a path inside ${folders.map((folder) => folder.name).join(' or ')} that is not reached through a symbolic link to elsewhere`,
      },
    },
  )
}

/**
 * A path a caller gave (relative to `base`) inside one of the folders, as written and on disk;
 * otherwise an input error quoting the path as written, so it names no other place on the
 * machine. `finalLink: 'allowed'` resolves only the folders, as for requireInsideWorkspace.
 */
export function requirePathWithin(
  folders: readonly AllowedFolder[],
  base: string,
  path: string,
  origin: string,
  options: { finalLink?: 'allowed' } = {},
): string {
  const absolute = resolve(base, path)
  if (!folders.some((folder) => within(folder.path, absolute))) {
    throw new MkError(
      'INVALID_INPUT',
      `${origin}: path ${JSON.stringify(path)} is outside ${folders.map((folder) => `${folder.name} ${folder.path}`).join(' or ')}`,
      {
        details: { path, hint: `give a path inside ${folders.map((folder) => folder.name).join(' or ')}` },
      },
    )
  }
  requireResolvesWithin(folders, options.finalLink === 'allowed' ? dirname(absolute) : absolute, origin)
  return absolute
}

/**
 * A workspace-relative path inside the workspace as written and on disk;
 * otherwise an input error naming where it came from. `finalLink: 'allowed'`
 * resolves only the folders: for callers that never follow a link in the
 * last part (check --files skips symbolic links).
 */
export function requireInsideWorkspace(root: string, path: string, origin: string, options: { base?: string; finalLink?: 'allowed' } = {}): string {
  const inside = insideWorkspace(root, path, options.base ?? root)
  if (inside === undefined) {
    throw new MkError('INVALID_INPUT', `${origin}: path ${JSON.stringify(path)} is outside the workspace ${root}`, {
      details: { path, hint: 'give paths inside the workspace, relative to its root' },
    })
  }
  const absolute = join(root, inside)
  requireResolvesWithin([{ path: root, name: 'the workspace' }], options.finalLink === 'allowed' ? dirname(absolute) : absolute, origin)
  return inside
}

/** Why a glob could reach outside the workspace (absolute, or a `..` segment), or undefined when it cannot. */
export function globEscapeError(glob: string): string | undefined {
  if (glob.startsWith('/') || /^[a-z]:[\\/]/i.test(glob)) return `glob ${JSON.stringify(glob)} is absolute; globs are relative to the workspace root`
  if (glob.split(/[\\/]/).includes('..')) return `glob ${JSON.stringify(glob)} has a ".." segment; globs cannot reach outside the workspace`
  return undefined
}
