import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { withLock } from '../../../src/fs/lock.js'

/*
 * The folder lock between the worker threads of one process, as `mk serve` runs writes: module
 * state is per thread, so what one thread holds is not in another's memory. Real threads, real
 * files; the threads load the built module (run `npm run build` first).
 */
const builtLock = new URL('../../../dist/src/fs/lock.js', import.meta.url)

// A thread that takes the lock, says so, and holds it until told to let go; it then says whether
// the lock file still held what it wrote (nobody broke it meanwhile).
const holder = `
const { parentPort, workerData } = require('node:worker_threads')
const { readFile } = require('node:fs/promises')
import(workerData.lockUrl).then(({ withLock }) =>
  withLock(workerData.lock, { what: 'the test', onBusy: workerData.onBusy, waitMs: 20000 }, async () => {
    const mine = await readFile(workerData.lock, 'utf8')
    parentPort.postMessage({ held: mine })
    await new Promise((resolve) => parentPort.once('message', resolve))
    parentPort.postMessage({ keptIt: (await readFile(workerData.lock, 'utf8').catch(() => '')) === mine })
  }),
).then(
  () => parentPort.postMessage({ done: true }),
  (error) => parentPort.postMessage({ failed: { code: error.code, message: error.message } }),
)
`

type Said = { held?: string; keptIt?: boolean; done?: true; failed?: { code?: string; message: string } }

const workers: Worker[] = []
function startHolder(lock: string, onBusy: 'wait' | 'fail'): { worker: Worker; threadId: number; next: () => Promise<Said> } {
  const worker = new Worker(holder, { eval: true, workerData: { lockUrl: builtLock.href, lock, onBusy } })
  workers.push(worker)
  const said: Said[] = []
  const waiting: ((message: Said) => void)[] = []
  worker.on('message', (message: Said) => {
    const take = waiting.shift()
    if (take === undefined) said.push(message)
    else take(message)
  })
  const next = (): Promise<Said> => {
    const first = said.shift()
    return first === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(first)
  }
  // Read now: a worker that has exited says -1.
  return { worker, threadId: worker.threadId, next }
}

let base: string
let lock: string
beforeEach(async () => {
  if (!existsSync(builtLock)) throw new Error('run npm run build first: the threads load dist/src/fs/lock.js')
  base = await mkdtemp(join(tmpdir(), 'mk-lock-threads-'))
  await mkdir(join(base, 'locks'))
  lock = join(base, 'locks', 'l')
})
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()))
  await rm(base, { recursive: true, force: true })
})

describe('the folder lock between threads of one process', () => {
  it('refuses a second thread while the first holds it, and records the holding thread', async () => {
    const first = startHolder(lock, 'wait')
    const held = (await first.next()).held ?? ''
    const second = startHolder(lock, 'fail')
    // On the old code the second thread judged the first one's lock stale, broke it and took it.
    expect(await second.next()).toMatchObject({ failed: { code: 'CONFLICT' } })
    first.worker.postMessage('let go')
    expect(await first.next()).toEqual({ keptIt: true })
    expect(await first.next()).toEqual({ done: true })
    const [pid, , , , thread] = held.split('\n')
    expect([pid, thread]).toEqual([String(process.pid), String(first.threadId)])
  })

  it('makes a waiting thread wait until the holder lets go, then lets it in', async () => {
    const first = startHolder(lock, 'wait')
    const held = (await first.next()).held
    const second = startHolder(lock, 'wait')
    // Let the second thread find the lock taken a few times (it retries every 5-50 ms).
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await readFile(lock, 'utf8')).toBe(held)
    first.worker.postMessage('let go')
    expect(await first.next()).toEqual({ keptIt: true })
    expect(await first.next()).toEqual({ done: true })
    const secondHeld = (await second.next()).held ?? ''
    expect(secondHeld.split('\n')[4]).toBe(String(second.threadId))
    second.worker.postMessage('let go')
    expect(await second.next()).toEqual({ keptIt: true })
    expect(await second.next()).toEqual({ done: true })
    expect(existsSync(lock)).toBe(false)
  })

  it('lets a waiting thread in when the holding thread lets go, without waiting for its next poll', async () => {
    const first = startHolder(lock, 'wait')
    await first.next()
    // This thread's timers stand still: polling alone never looks again, the holder's release wakes it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    try {
      let inside = ''
      const waiting = withLock(lock, { what: 'the test', onBusy: 'wait' }, async () => {
        inside = await readFile(lock, 'utf8')
      })
      // Its pause: it found the lock taken and waits.
      while (vi.getTimerCount() < 1) await new Promise((resolve) => setImmediate(resolve))
      first.worker.postMessage('let go')
      await waiting
      expect(inside.split('\n')[4]).toBe('0')
    } finally {
      vi.useRealTimers()
    }
    expect(await first.next()).toEqual({ keptIt: true })
  }, 10_000)

  it('takes over a lock of this pid, with no thread recorded, that no thread here holds (an older mk)', async () => {
    await writeFile(lock, `${process.pid}\n${hostname()}\nsomeonesToken\n\n`)
    const taker = startHolder(lock, 'fail')
    expect((await taker.next()).held).toContain(`\n${taker.threadId}\n`)
    taker.worker.postMessage('let go')
    expect(await taker.next()).toEqual({ keptIt: true })
  })

  it('takes over a lock of another thread that an earlier process with this pid left (it started at another time)', async () => {
    await writeFile(lock, `${process.pid}\n${hostname()}\nsomeonesToken\n1000\n3\n`)
    const taker = startHolder(lock, 'fail')
    expect((await taker.next()).held).toContain(`\n${taker.threadId}\n`)
    taker.worker.postMessage('let go')
    expect(await taker.next()).toEqual({ keptIt: true })
  })
})
