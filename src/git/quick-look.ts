import { open, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'

const packMagic: Readonly<Record<string, string>> = { '.pack': 'PACK', '.idx': '\xfftOc' }

async function startsWith(path: string, magic: string): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(magic.length)
    await handle.read(buffer, 0, magic.length, 0)
    return buffer.toString('latin1') === magic
  } finally {
    await handle.close()
  }
}

/**
 * A cheap look at a clone mk made, without loading a git implementation: the detached
 * HEAD commit and the origin url, if every pack file still carries its header. Anything
 * unexpected returns undefined, and the caller takes the slow, thorough path.
 */
export async function quickLook(dir: string): Promise<{ head: string; url: string } | undefined> {
  try {
    const gitdir = join(dir, '.git')
    const head = (await readFile(join(gitdir, 'HEAD'), 'utf8')).trim()
    if (!/^[0-9a-f]{40}$/.test(head)) return undefined
    const config = await readFile(join(gitdir, 'config'), 'utf8')
    const url = /\[remote "origin"\][^[]*?^\s*url\s*=\s*(.+)$/m.exec(config)?.[1]?.trim()
    if (url === undefined) return undefined
    const packDir = join(gitdir, 'objects', 'pack')
    for (const file of await readdir(packDir)) {
      const magic = packMagic[file.slice(file.lastIndexOf('.'))]
      if (magic !== undefined && !(await startsWith(join(packDir, file), magic))) return undefined
    }
    return { head, url }
  } catch {
    return undefined
  }
}
