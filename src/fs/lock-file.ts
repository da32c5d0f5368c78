import { createHash, randomBytes } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import { hostname } from 'node:os'
import { MkError, isNodeError } from '../errors.js'
import { writeFileExclusiveWhole } from './atomic-write.js'

/**
 * One lock file: `pid`, `host` and a random token, one a line, so every lock's content is unique.
 * A file with content C is removed only by the process whose lock it is (release) or by the one
 * process that created the break marker for C (a stale lock), so reading C and then removing the
 * file is safe: nobody else can change it in between.
 */

/** What a lock file says about its holder. */
export interface Holder {
  content: string
  pid: number | undefined
  /** Absent in lock files written before the host was recorded. */
  host: string | undefined
}

export type Attempt = { kind: 'acquired' } | { kind: 'busy'; holder: Holder } | { kind: 'retry' }

/** Lock contents held by this process right now (several tasks of one process may wait for the same lock). */
const heldHere = new Set<string>()

export function newLockContent(): string {
  return `${process.pid}\n${hostname()}\n${randomBytes(8).toString('hex')}\n`
}

function parseHolder(content: string): Holder {
  const [pidLine = '', host = ''] = content.split('\n')
  const pid = /^\d+$/.test(pidLine.trim()) ? Number(pidLine.trim()) : undefined
  return { content, pid, host: host === '' ? undefined : host }
}

async function readContent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return undefined
    if (isNodeError(error) && error.code === 'EISDIR') {
      throw new MkError('CONFLICT', `the lock ${path} is a folder, not a lock file`, {
        details: { lock: path, hint: `an older mk locked with folders; if no mk process is running, delete ${path}` },
      })
    }
    throw error
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return isNodeError(error) && error.code === 'EPERM'
  }
}

/**
 * Whether the holder may still be working, however old its lock. A lock of this process's pid
 * that no task here holds is left over from an earlier process that had the same pid. A lock
 * from another host cannot be checked and counts as live.
 */
function isLive(holder: Holder): boolean {
  if (holder.pid === undefined) return false
  if (holder.host !== undefined && holder.host !== hostname()) return true
  if (holder.pid === process.pid) return heldHere.has(holder.content)
  return pidAlive(holder.pid)
}

/** Try once to create the lock file with `content`; a stale lock is taken over (the caller tries again). */
export async function tryAcquire(path: string, content: string): Promise<Attempt> {
  heldHere.add(content)
  try {
    await writeFileExclusiveWhole(path, content)
    return { kind: 'acquired' }
  } catch (error) {
    heldHere.delete(content)
    if (!isNodeError(error) || error.code !== 'EEXIST') throw error
  }
  const found = await readContent(path)
  // Gone: released meanwhile. Empty: being written where hard links are not supported.
  if (found === undefined || found === '') return { kind: 'retry' }
  const holder = parseHolder(found)
  if (isLive(holder)) return { kind: 'busy', holder }
  await breakStale(path, found)
  return { kind: 'retry' }
}

/**
 * Remove the lock file if it still holds `stale`. Exactly one process gets the break marker
 * named after that content (an exclusive create, itself a lock: a marker left by a crashed
 * breaker is taken over the same way), so two waiters never both remove it, and a waiter that
 * read `stale` long ago never removes the fresh lock of whoever took over since.
 */
export async function breakStale(path: string, stale: string): Promise<void> {
  const marker = `${path}.${createHash('sha256').update(stale).digest('hex').slice(0, 12)}.break`
  const mine = newLockContent()
  if ((await tryAcquire(marker, mine)).kind !== 'acquired') return
  try {
    if ((await readContent(path)) === stale) await rm(path, { force: true })
  } finally {
    await release(marker, mine)
  }
}

/** Remove the lock file only if it is still ours. */
export async function release(path: string, content: string): Promise<void> {
  try {
    if ((await readContent(path)) === content) await rm(path, { force: true })
  } finally {
    heldHere.delete(content)
  }
}
