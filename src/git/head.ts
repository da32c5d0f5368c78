import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gitFolders } from './git-folders.js'

/** The nearest folder at or above `start` that holds a `.git` (a folder, or a file naming one). */
export function repositoryRootOf(start: string): string | undefined {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder
    if (dirname(folder) === folder) return undefined
  }
}

/** The commit HEAD points at, read from the ref files (no git implementation loaded); undefined before the first commit or when unreadable. */
export function headCommit(gitRoot: string): string | undefined {
  try {
    const { gitdir, commonDir } = gitFolders(gitRoot)
    const head = readFileSync(join(gitdir, 'HEAD'), 'utf8').trim()
    if (/^[0-9a-f]{40}$/.test(head)) return head
    const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1]
    if (ref === undefined) return undefined
    for (const folder of [gitdir, commonDir]) {
      const loose = join(folder, ref)
      if (existsSync(loose)) return readFileSync(loose, 'utf8').trim()
    }
    const packed = join(commonDir, 'packed-refs')
    if (!existsSync(packed)) return undefined
    const line = readFileSync(packed, 'utf8')
      .split('\n')
      .find((entry) => entry.endsWith(` ${ref}`))
    return line?.slice(0, 40)
  } catch {
    return undefined
  }
}
