import { BroadcastChannel } from 'node:worker_threads'

/**
 * Lock files let go of by any thread of this process, so a waiter here takes the lock the moment
 * it is free instead of at its next poll (`mk serve` writes one memory folder from several tool
 * threads). Only a hint: a waiter still polls, for holders in other processes and for a release
 * it missed, and a woken waiter still has to win the lock file.
 */
const channelName = 'mk:lock-released'

/** Waiters of this thread, by lock path. */
const waiters = new Map<string, Set<() => void>>()
let channel: BroadcastChannel | undefined

function wakeHere(path: string): void {
  for (const wake of waiters.get(path) ?? []) wake()
}

function openChannel(): BroadcastChannel {
  if (channel === undefined) {
    channel = new BroadcastChannel(channelName)
    channel.onmessage = (event: unknown) => {
      const data = (event as { data?: unknown }).data
      if (typeof data === 'string') wakeHere(data)
    }
    // A thread that only waits or only lets go is not kept alive by listening.
    channel.unref()
  }
  return channel
}

/** Say that `path` was let go of: to this thread's waiters and, through the channel, to every other thread's. */
export function announceReleased(path: string): void {
  wakeHere(path)
  openChannel().postMessage(path)
}

/**
 * Listen for `path` to be let go of, from now on: `released` settles at the first announcement,
 * `stop` ends the listening (call it whether or not it came).
 */
export function listenForRelease(path: string): { released: Promise<void>; stop: () => void } {
  openChannel()
  let wake = (): void => undefined
  const released = new Promise<void>((resolve) => (wake = resolve))
  const listeners = waiters.get(path) ?? new Set()
  listeners.add(wake)
  waiters.set(path, listeners)
  const stop = (): void => {
    listeners.delete(wake)
    if (listeners.size === 0 && waiters.get(path) === listeners) waiters.delete(path)
  }
  return { released, stop }
}
