import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { link, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, basename } from 'node:path'
import { isNodeError } from '../errors.js'
import { pidAlive } from './process-liveness.js'

function tempSibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
}

/** Remove the temp files (see tempSibling) that writers killed before their rename left in a folder. */
export async function removeAbandonedTemporaryFiles(dir: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return
    throw error
  }
  for (const name of names) {
    const pid = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name)?.[1]
    if (pid !== undefined && !pidAlive(Number(pid))) await rm(join(dir, name), { force: true })
  }
}

/**
 * Write a file so that readers see the old content or the new, never half:
 * write a sibling temp file, then rename over the target.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempSibling(path)
  try {
    await writeFile(temp, content)
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** writeFileAtomic for callers on a latency budget that write several small files in a row (a git commit). */
export function writeFileAtomicSync(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = tempSibling(path)
  try {
    writeFileSync(temp, content)
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

/** Create a new file; fails with EEXIST instead of overwriting. */
export async function writeFileExclusive(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, content, { flag: 'wx' })
}

/** Filesystems without hard links (FAT, some network shares) answer link() with one of these. */
const noHardLinks: ReadonlySet<string> = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/**
 * Create a new file that readers see whole or not at all; fails with EEXIST instead of
 * overwriting. The content goes to a temp sibling first, which is then hard-linked into place
 * (link, unlike rename, never replaces an existing file). Where hard links are not supported it
 * falls back to writeFileExclusive, and a reader may briefly see the file empty.
 */
export async function writeFileExclusiveWhole(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = tempSibling(path)
  try {
    await writeFile(temp, content, { flag: 'wx' })
    await link(temp, path)
  } catch (error) {
    if (!isNodeError(error) || error.code === undefined || !noHardLinks.has(error.code)) throw error
    await writeFile(path, content, { flag: 'wx' })
  } finally {
    await rm(temp, { force: true })
  }
}
