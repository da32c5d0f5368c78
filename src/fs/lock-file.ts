import { createHash, randomBytes } from 'node:crypto'
import { readFile, readdir, rm, stat, utimes } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { hostname } from 'node:os'
import { threadId } from 'node:worker_threads'
import { MkError, isNodeError } from '../errors.js'
import { writeFileExclusiveWhole } from './atomic-write.js'
import { announceReleased } from './lock-released.js'
import { mayRunMk, pidAlive, processCommand, processStartedAt } from './process-liveness.js'

/**
 * One lock file: `pid`, `host`, a random token, the holder's start time (ms since the epoch,
 * empty where the system does not say) and the holder's thread (its worker_threads threadId, 0
 * for the main thread), one a line, so every lock's content is unique, a pid reused by another
 * process is told apart from its holder, and the threads of one process (`mk serve` writes from
 * several) are told apart from each other.
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
  /** On another host: its liveness cannot be checked from here, so waiting cannot help. */
  elsewhere: boolean
  /** When the holder started, as it recorded; absent in lock files of older mk versions. */
  started: number | undefined
  /** The holder's thread in its process, as it recorded; absent in lock files of older mk versions. */
  thread: number | undefined
  /** Set when the pid now runs something that is not mk (its command line): the lock was left behind, and waiting cannot help. */
  unrelated?: string
}

export type Attempt = { kind: 'acquired' } | { kind: 'busy'; holder: Holder } | { kind: 'retry' }

/**
 * A holder touches its lock file this often, so a lock whose holder cannot be checked (another
 * host, no /proc) and that was not touched for `staleAfterMs` is known to be abandoned.
 */
export const refreshEveryMs = 30_000
export const staleAfterMs = 10 * 60_000
/** An empty lock file is being written (where hard links are not supported) for a moment, no longer. */
const emptyGraceMs = 2_000

/** Lock contents held by this thread right now (several tasks of one thread may wait for the same lock). */
const heldHere = new Set<string>()

/** A lock content this thread is about to write (`held`), or has let go of or failed to take. */
export interface LockNote {
  held: boolean
  path: string
  content: string
}

let noteLock: ((note: LockNote) => void) | undefined

/**
 * Tell `listener` of every lock this thread takes and lets go, synchronously: before it writes a
 * lock file and after it removes one. A thread that may be stopped from outside (a tool thread of
 * `mk serve`) passes its notes to whoever stops it, who then releases what was held (see
 * `release`, which removes only a file that still holds that content).
 */
export function reportLocksTo(listener: ((note: LockNote) => void) | undefined): void {
  noteLock = listener
}

let ownStart: number | undefined | null = null

function ownStartedAt(): number | undefined {
  ownStart = ownStart === null ? processStartedAt(process.pid) : ownStart
  return ownStart
}

export function newLockContent(): string {
  return `${process.pid}\n${hostname()}\n${randomBytes(8).toString('hex')}\n${ownStartedAt() ?? ''}\n${threadId}\n`
}

/** Whether a holder with this process's pid is this process (not an earlier one that had the pid) and another of its threads. */
function anotherThreadHere(holder: Holder): boolean {
  if (holder.thread === undefined || holder.thread === threadId) return false
  const own = ownStartedAt()
  return own === undefined || holder.started === undefined || Math.abs(own - holder.started) <= 1_000
}

function parseHolder(content: string): Holder {
  const [pidLine = '', host = '', , startedLine = '', threadLine = ''] = content.split('\n')
  const pid = /^\d+$/.test(pidLine.trim()) ? Number(pidLine.trim()) : undefined
  const started = /^\d+$/.test(startedLine.trim()) ? Number(startedLine.trim()) : undefined
  const thread = /^\d+$/.test(threadLine.trim()) ? Number(threadLine.trim()) : undefined
  return { content, pid, host: host === '' ? undefined : host, elsewhere: host !== '' && host !== hostname(), started, thread }
}

async function readContent(path: string): Promise<string | undefined> {
  return (await readLock(path))?.content
}

async function readLock(path: string): Promise<{ content: string; touchedMs: number } | undefined> {
  try {
    const { mtimeMs } = await stat(path)
    return { content: await readFile(path, 'utf8'), touchedMs: mtimeMs }
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

/**
 * Whether the holder may still be working. A lock of this process (its pid and start time) and of
 * another of its threads is live: no thread can see another's memory or tell whether it still
 * runs, so the one that can (the thread that started it, see `reportLocksTo`) releases the locks
 * of a thread it stops. A lock of this process's pid and this thread (or of no thread: an older mk) that no
 * task here holds is left over from an earlier process that had the same pid, and so is one whose
 * pid belongs to a process started at another time than the holder recorded, or (a lock of an
 * older mk, which recorded none) after the lock was last touched: the pid was reused. Where that cannot be
 * checked (another host, no /proc), a lock not touched for longer than any holder lets pass is
 * abandoned; a checked live holder's lock is never broken, however old.
 *
 * `unrelated`: the pid runs something that cannot be mk (`sleep`, `sshd`), in a lock that recorded
 * no start time to prove it: the lock was left behind, but only a person can be sure, so the
 * caller is told at once, with the fix, instead of waiting for a process that will never let go.
 */
function stateOf(holder: Holder, touchedMs: number): 'stale' | 'live' | 'unrelated' {
  if (holder.pid === undefined) return 'stale'
  const untouched = Date.now() - touchedMs > staleAfterMs
  if (holder.elsewhere) return untouched ? 'stale' : 'live'
  if (holder.pid === process.pid) {
    if (heldHere.has(holder.content)) return 'live'
    return anotherThreadHere(holder) ? 'live' : 'stale'
  }
  if (!pidAlive(holder.pid)) return 'stale'
  const started = processStartedAt(holder.pid)
  // /proc times are whole seconds off the boot time: allow one second either way.
  if (started !== undefined && holder.started !== undefined) return Math.abs(started - holder.started) <= 1_000 ? 'live' : 'stale'
  if (started === undefined) return untouched ? 'stale' : 'live'
  if (started > touchedMs + 1_000) return 'stale'
  const command = processCommand(holder.pid)
  if (command !== undefined && !mayRunMk(command)) {
    holder.unrelated = command
    return 'unrelated'
  }
  return 'live'
}

function isLive(holder: Holder, touchedMs: number): boolean {
  return stateOf(holder, touchedMs) !== 'stale'
}

/** Try once to create the lock file with `content`; a stale lock is taken over (the caller tries again). */
export async function tryAcquire(path: string, content: string): Promise<Attempt> {
  heldHere.add(content)
  noteLock?.({ held: true, path, content })
  try {
    await writeFileExclusiveWhole(path, content)
    return { kind: 'acquired' }
  } catch (error) {
    heldHere.delete(content)
    noteLock?.({ held: false, path, content })
    if (!isNodeError(error) || error.code !== 'EEXIST') throw error
  }
  const found = await readLock(path)
  // Gone: released meanwhile.
  if (found === undefined) return { kind: 'retry' }
  if (found.content === '') {
    if (Date.now() - found.touchedMs > emptyGraceMs) await breakStale(path, '')
    return { kind: 'retry' }
  }
  const holder = parseHolder(found.content)
  if (stateOf(holder, found.touchedMs) !== 'stale') return { kind: 'busy', holder }
  await breakStale(path, found.content)
  return { kind: 'retry' }
}

/** Tell waiters the holder is still at work (see isLive); a lock no longer ours is left alone. */
export async function refresh(path: string, content: string): Promise<void> {
  if ((await readContent(path)) !== content) return
  const now = new Date()
  await utimes(path, now, now).catch(() => undefined)
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

/**
 * Remove the break markers beside a lock that breakers killed mid-break left behind. A marker is
 * named after the stale content it was breaking, which no process will read again once that lock
 * is gone, so only the holder of the lock itself can clear them; a live breaker's is left alone.
 */
export async function removeAbandonedBreakMarkers(path: string): Promise<void> {
  const prefix = `${basename(path)}.`
  const names = await readdir(dirname(path)).catch(() => [] as string[])
  for (const name of names.filter((entry) => entry.startsWith(prefix) && entry.endsWith('.break'))) {
    const marker = join(dirname(path), name)
    const found = await readLock(marker)
    if (found === undefined) continue
    if (found.content !== '' && isLive(parseHolder(found.content), found.touchedMs)) continue
    await breakStale(marker, found.content)
  }
}

/** Remove the lock file only if it is still ours. */
export async function release(path: string, content: string): Promise<void> {
  try {
    if ((await readContent(path)) === content) {
      await rm(path, { force: true })
      announceReleased(path)
    }
  } finally {
    heldHere.delete(content)
    noteLock?.({ held: false, path, content })
  }
}
