import { hostname } from 'node:os'
import { dirname } from 'node:path'
import { removeAbandonedTemporaryFiles } from './atomic-write.js'
import { MkError } from '../errors.js'
import { listenForRelease } from './lock-released.js'
import { newLockContent, refresh, refreshEveryMs, release, removeAbandonedBreakMarkers, tryAcquire, type Holder } from './lock-file.js'

export interface LockOptions {
  /** What the lock guards, for messages: `this workspace`, `source "company"`. */
  what: string
  /**
   * When a live process holds the lock: `wait` for it (jittered backoff, TIMEOUT after
   * `waitMs`) or `fail` at once with a retryable CONFLICT naming its pid. A recent lock of
   * another host fails at once either way: nothing here can tell whether its holder still runs;
   * so does a lock whose pid now runs a program that is not mk (the hint says how to clear it).
   */
  onBusy: 'wait' | 'fail'
  /** How long `wait` waits; also bounds the retries while someone else takes over a stale lock. Default 60 s. */
  waitMs?: number
  /** The command to run again after a CONFLICT, for the hint, e.g. `mk sync`. */
  retry?: string
}

const defaultWaitMs = 60_000
/** How often a waiter looks again while a thread of this process holds the lock, whose release wakes it anyway. */
const sameProcessPollMs = 500

/** `ms` passing or `early` settling, whichever comes first; the timer does not outlive the wait. */
async function pauseUnless(ms: number, early: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([early, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))])
  } finally {
    clearTimeout(timer)
  }
}

function describe(holder: Holder): string {
  if (holder.pid === process.pid && holder.thread !== undefined) return `another thread of this mk process (pid ${holder.pid}, thread ${holder.thread})`
  const host = holder.host !== undefined && holder.host !== hostname() ? ` on ${holder.host}` : ''
  return `another mk process (pid ${holder.pid}${host})`
}

function conflict(path: string, options: LockOptions, holder: Holder): MkError {
  const retry = options.retry ?? 'the command'
  if (holder.unrelated !== undefined) {
    return new MkError(
      'CONFLICT',
      `${options.what} is locked by ${path}, which names pid ${holder.pid}, but that pid now runs \`${holder.unrelated}\`, not mk: the mk process that took the lock is gone and its pid was reused (after a reboot, say)`,
      {
        details: {
          pid: holder.pid,
          command: holder.unrelated,
          lock: path,
          hint: `if no mk process is running, clear the lock with: rm '${path}' and run ${retry} again`,
        },
        retryable: false,
      },
    )
  }
  const hint = holder.elsewhere
    ? `if no mk process runs on ${holder.host}, clear the lock with: rm '${path}' and run ${retry} again`
    : `wait for it to finish and run ${retry} again (if no mk process is running, delete ${path})`
  return new MkError('CONFLICT', `${options.what} is being updated by ${describe(holder)}`, {
    details: { pid: holder.pid, ...(holder.elsewhere ? { host: holder.host } : {}), lock: path, hint },
    retryable: true,
  })
}

function timedOut(path: string, options: LockOptions, waitMs: number, holder: Holder | undefined): MkError {
  const busy = holder === undefined ? '' : `: ${options.what} is being updated by ${describe(holder)}`
  const stuck = holder === undefined ? '' : `if pid ${holder.pid} is a stuck mk process, stop it; `
  return new MkError('TIMEOUT', `waited ${waitMs / 1000} s for the lock ${path}${busy}`, {
    details: { ...(holder === undefined ? {} : { pid: holder.pid }), lock: path, hint: `${stuck}if no mk process is running, delete ${path}` },
  })
}

/**
 * Run `work` holding a lock file shared by every process on this machine (and by the threads and
 * tasks of this one). The file names its holder's pid, host and thread; a lock whose holder is dead, whose pid
 * was reused, that is empty or that was abandoned is taken over (see lock-file.ts), and a live
 * holder's lock is never broken, however long it has been held.
 */
export async function withLock<T>(path: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const content = newLockContent()
  const waitMs = options.waitMs ?? defaultWaitMs
  const started = Date.now()
  let holder: Holder | undefined
  for (let attempt = 0; ; attempt++) {
    // Listening from before the attempt: a release between the attempt and the wait is not missed.
    const release = listenForRelease(path)
    try {
      const outcome = await tryAcquire(path, content)
      if (outcome.kind === 'acquired') break
      let pauseMs = 5 + Math.random() * Math.min(50, 5 * (attempt + 1))
      if (outcome.kind === 'busy') {
        if (options.onBusy === 'fail' || outcome.holder.elsewhere || outcome.holder.unrelated !== undefined) throw conflict(path, options, outcome.holder)
        holder = outcome.holder
        // A holder in this process announces its release: the poll is only a safety net.
        if (holder.pid === process.pid) pauseMs = sameProcessPollMs
      }
      if (Date.now() - started > waitMs) throw timedOut(path, options, waitMs, holder)
      await pauseUnless(pauseMs, release.released)
    } finally {
      release.stop()
    }
  }
  // Lock files are written through temp files: those of holders killed mid-write go here, and so
  // do the markers of breakers killed mid-break.
  await removeAbandonedTemporaryFiles(dirname(path))
  await removeAbandonedBreakMarkers(path)
  const keepFresh = setInterval(() => void refresh(path, content), refreshEveryMs)
  keepFresh.unref()
  try {
    return await work()
  } finally {
    clearInterval(keepFresh)
    await release(path, content)
  }
}
