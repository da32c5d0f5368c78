import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { MkError, toErrorObject } from '../../errors.js'
import { release, type LockNote } from '../../fs/lock-file.js'
import { packageRoot } from '../../package-root.js'
import type { AnyTool } from '../../tools/define.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import { runToolCall, type ToolCall } from './tool-call.js'
import type { StoreDatabase, TenantStores } from './tenants.js'
import { warmWritePath, type WarmWrites } from './warm-writes.js'

/** Where a tool thread finds the tenants: one store per tenant under a data folder, or the server's own workspace. */
export type ThreadLayout = { dataDir: string } | { cwd: string; env: Record<string, string | undefined> }

export interface ThreadData {
  layout: ThreadLayout
  /** The server's environment, which every tool call sees (see runToolCall). */
  env: Record<string, string | undefined>
  /** The database every tenant's data is kept in (--store), each thread on its own pool; absent: files. */
  database?: StoreDatabase | undefined
}

export type ThreadRequest =
  | { id: number; type: 'call'; call: ToolCall }
  | { id: number; type: 'warm-writes'; options: WarmWrites }
  | { id: number; type: 'close-tenant'; tenantId: string }
  | { id: number; type: 'close' }

export type ThreadReply = { id: number; outcome: DispatchOutcome } | { id: number } | { id: number; failure: string }

/** A lock the thread is about to write or has let go of (see reportLocksTo), posted before it writes it. */
export type ThreadNote = { lock: LockNote }

/** What runs the calls the scheduler admits: `slots` of them at once, each on the slot it is given. */
export interface CallRunner {
  readonly slots: number
  /** Whether a call's work leaves the thread that accepts requests. */
  readonly threaded: boolean
  run(call: ToolCall, slot: number): Promise<DispatchOutcome>
  /** Loads what a memory write needs in every thread (see warmWritePath). */
  warmWrites(options: WarmWrites): Promise<void>
  /** Releases a tenant's indexes and models everywhere; its next call opens them again. */
  closeTenant(tenantId: string): Promise<void>
  close(): Promise<void>
}

/** The compiled thread: tsc's output ships in the package (dist/src); sources run by a test runner have none. */
function threadFile(): string | undefined {
  const file = join(packageRoot(), 'dist', 'src', 'hosts', 'http', 'tool-worker.js')
  return existsSync(file) ? file : undefined
}

/** Calls run in this thread, interleaved at their awaits: where no compiled thread exists (sources under a test runner). */
export function inlineRunner(
  stores: TenantStores,
  tools: readonly AnyTool[],
  env: Readonly<Record<string, string | undefined>>,
  toolTimeoutMs: number,
): CallRunner {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  return {
    slots: 16,
    threaded: false,
    run: (call) => runToolCall(stores, byName, call, env, toolTimeoutMs),
    warmWrites: warmWritePath,
    closeTenant: (tenantId) => stores.close(tenantId),
    close: () => stores.closeAll(),
  }
}

interface Waiting {
  /** A call is failed when its thread stops; housekeeping (warm, close a tenant) is done by the stop itself. */
  call: boolean
  resolve: (reply: ThreadReply) => void
  reject: (error: MkError) => void
}

interface ToolThread {
  worker: Worker
  waiting: Map<number, Waiting>
  /** The locks it may hold (content → lock file), from its notes: released if it stops. */
  locks: Map<string, string>
  /** Settles once it has loaded the write path: a call's deadline starts after it, not while it waits behind the warm-up. */
  warm: Promise<unknown>
}

/** How long the main thread lets a call hold its thread: past it the caller gets TIMEOUT and the thread is replaced. */
export interface CallDeadlines {
  /** The call's own limit: the tool's, or the server's (MK_SERVE_TOOL_TIMEOUT_MS). */
  timeoutMsOf(tool: string): number
  /** Added to it, so a call that waits on I/O is answered by its own timeout and its thread kept. */
  graceMs: number
}

/** How long closing waits for the threads to close their stores before it stops them. */
const closeGraceMs = 5_000

function threadTimedOut(call: ToolCall, timeoutMs: number): MkError {
  return new MkError('TIMEOUT', `${call.tool} did not finish within ${timeoutMs} ms, so the server stopped it and replaced its thread`, {
    details: {
      tool: call.tool,
      timeoutMs,
      hint: 'the same input would take as long again: send a smaller or simpler input, or ask the operator to raise MK_SERVE_TOOL_TIMEOUT_MS; a write may or may not have been saved, so check before writing again',
    },
    retryable: false,
  })
}

/**
 * `count` worker threads, each running one call at a time on its own connections. A thread that
 * dies fails the calls it held (retryable) and is replaced, so one crash does not take the server down.
 * A call that outlives its deadline is answered TIMEOUT and its thread terminated and replaced: a
 * CPU-bound call never yields to its own timer, so only stopping the thread frees it. The locks a
 * stopped thread held are released here (it tells this thread of each before it writes it), so the
 * next write to that folder does not wait for a holder that is gone.
 */
export function threadRunner(count: number, data: ThreadData, deadlines: CallDeadlines): CallRunner | undefined {
  const file = threadFile()
  if (file === undefined) return undefined
  let nextId = 0
  let closing = false
  const threads: ToolThread[] = []
  // What every thread was warmed with; a replacement is warmed the same way.
  let warmed: WarmWrites | undefined

  const send = (slot: number, request: ThreadRequest): Promise<ThreadReply> => {
    const thread = threads[slot]
    if (thread === undefined) return Promise.reject(new MkError('INTERNAL_ERROR', `no tool thread ${slot}`))
    return new Promise((resolve, reject) => {
      thread.waiting.set(request.id, { call: request.type === 'call', resolve, reject })
      thread.worker.postMessage(request)
    })
  }

  /** Fails the calls a stopped thread held; its housekeeping (warm, close a tenant) is done: nothing of it is left to warm or close. */
  const stopped = (thread: ToolThread, error: MkError): void => {
    for (const [id, waiting] of thread.waiting) {
      if (waiting.call) waiting.reject(error)
      else waiting.resolve({ id })
    }
    thread.waiting.clear()
  }
  const releaseLocks = (thread: ToolThread): void => {
    for (const [content, path] of thread.locks) void release(path, content).catch(() => undefined)
    thread.locks.clear()
  }

  const start = (slot: number): void => {
    const thread: ToolThread = { worker: new Worker(file, { workerData: data }), waiting: new Map(), locks: new Map(), warm: Promise.resolve() }
    threads[slot] = thread
    thread.worker.on('message', (message: ThreadReply | ThreadNote) => {
      if ('lock' in message) {
        if (message.lock.held) thread.locks.set(message.lock.content, message.lock.path)
        else thread.locks.delete(message.lock.content)
        return
      }
      const waiting = thread.waiting.get(message.id)
      thread.waiting.delete(message.id)
      waiting?.resolve(message)
    })
    const fail = (why: string): void =>
      stopped(
        thread,
        new MkError('UNAVAILABLE', `the thread running the call stopped (${why}) before it answered`, {
          details: { hint: 'retry the call' },
          retryable: true,
        }),
      )
    thread.worker.on('error', (error) => fail(error.message))
    // Node delivers every message a thread posted before its 'exit', so its lock notes are all in.
    thread.worker.on('exit', (code) => {
      fail(`exit code ${code}`)
      releaseLocks(thread)
      if (!closing && threads[slot] === thread) replace(slot)
    })
  }
  const replace = (slot: number): void => {
    start(slot)
    if (warmed !== undefined) warmIn(slot, warmed)
  }
  const warmIn = (slot: number, options: WarmWrites): Promise<ThreadReply> => {
    const reply = send(slot, { id: nextId++, type: 'warm-writes', options })
    const thread = threads[slot]
    if (thread !== undefined) thread.warm = reply.catch(() => undefined)
    return reply
  }
  for (let slot = 0; slot < count; slot++) start(slot)

  const failureOf = (reply: ThreadReply): string | undefined => ('failure' in reply ? reply.failure : undefined)
  const allAnswered = (replies: readonly ThreadReply[]): void => {
    const failure = replies.map(failureOf).find((text) => text !== undefined)
    if (failure !== undefined) throw new MkError('INTERNAL_ERROR', failure)
  }
  const everywhere = async (request: (id: number) => ThreadRequest): Promise<void> =>
    allAnswered(await Promise.all(threads.map((_, slot) => send(slot, request(nextId++)))))

  /** Past its deadline: the caller is answered, the slot gets a fresh thread at once, and the old one is stopped. */
  const overdue = (slot: number, thread: ToolThread, call: ToolCall, timeoutMs: number): void => {
    if (closing || threads[slot] !== thread) return
    replace(slot)
    stopped(thread, threadTimedOut(call, timeoutMs))
    void thread.worker.terminate()
  }

  return {
    slots: count,
    threaded: true,
    async run(call, slot) {
      await threads[slot]?.warm
      const thread = threads[slot]
      const timeoutMs = deadlines.timeoutMsOf(call.tool)
      const timer =
        thread === undefined || call.unbounded === true ? undefined : setTimeout(() => overdue(slot, thread, call, timeoutMs), timeoutMs + deadlines.graceMs)
      try {
        const reply = await send(slot, { id: nextId++, type: 'call', call })
        if ('outcome' in reply) return reply.outcome
        throw new MkError('INTERNAL_ERROR', failureOf(reply) ?? 'the tool thread answered nothing')
      } catch (error) {
        return { ok: false, error: toErrorObject(error), warnings: [] }
      } finally {
        clearTimeout(timer)
      }
    },
    async warmWrites(options) {
      warmed = options
      allAnswered(await Promise.all(threads.map((_, slot) => warmIn(slot, options))))
    },
    closeTenant: (tenantId) => everywhere((id) => ({ id, type: 'close-tenant', tenantId })),
    async close() {
      closing = true
      // A thread still spinning on a call never answers: stop it after a grace instead of waiting forever.
      let grace: NodeJS.Timeout | undefined
      const waited = new Promise<void>((resolve) => (grace = setTimeout(resolve, closeGraceMs)))
      await Promise.race([everywhere((id) => ({ id, type: 'close' })).catch(() => undefined), waited])
      clearTimeout(grace)
      await Promise.all(threads.map((thread) => thread.worker.terminate()))
    },
  }
}
