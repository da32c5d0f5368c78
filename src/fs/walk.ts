import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'

export interface WalkOptions {
  /** Directory names never descended into. */
  skipDirectories?: ReadonlySet<string>
  /** Return false to skip a file or directory by its path relative to the root (posix separators). */
  include?: (relativePath: string, isDirectory: boolean) => boolean
}

const defaultSkip: ReadonlySet<string> = new Set(['.git', 'node_modules', '.mk'])

/** Every regular file below root, as posix paths relative to root, sorted. Symlinks are not followed. */
export async function walkFiles(root: string, options: WalkOptions = {}): Promise<string[]> {
  const skip = options.skipDirectories ?? defaultSkip
  const found: string[] = []
  async function visit(directory: string): Promise<void> {
    const entries = await readdir(directory, { withFileTypes: true })
    for (const entry of entries) {
      const absolute = join(directory, entry.name)
      const rel = toPosix(relative(root, absolute))
      if (entry.isDirectory()) {
        if (skip.has(entry.name)) continue
        if (options.include && !options.include(rel, true)) continue
        await visit(absolute)
      } else if (entry.isFile()) {
        if (options.include && !options.include(rel, false)) continue
        found.push(rel)
      }
    }
  }
  await visit(root)
  return found.sort()
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/')
}
