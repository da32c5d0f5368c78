import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { MkError, toErrorObject } from '../../errors.js'
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
export function inlineRunner(stores: TenantStores, tools: readonly AnyTool[], env: Readonly<Record<string, string | undefined>>): CallRunner {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  return {
    slots: 16,
    threaded: false,
    run: (call) => runToolCall(stores, byName, call, env),
    warmWrites: warmWritePath,
    closeTenant: (tenantId) => stores.close(tenantId),
    close: () => stores.closeAll(),
  }
}

interface Waiting {
  resolve: (reply: ThreadReply) => void
  reject: (error: MkError) => void
}

interface ToolThread {
  worker: Worker
  waiting: Map<number, Waiting>
}

/**
 * `count` worker threads, each running one call at a time on its own connections. A thread that
 * dies fails the calls it held (retryable) and is replaced, so one crash does not take the server down.
 */
export function threadRunner(count: number, data: ThreadData): CallRunner | undefined {
  const file = threadFile()
  if (file === undefined) return undefined
  let nextId = 0
  let closing = false
  const threads: ToolThread[] = []

  const start = (slot: number): void => {
    const thread: ToolThread = { worker: new Worker(file, { workerData: data }), waiting: new Map() }
    threads[slot] = thread
    thread.worker.on('message', (reply: ThreadReply) => {
      const waiting = thread.waiting.get(reply.id)
      thread.waiting.delete(reply.id)
      waiting?.resolve(reply)
    })
    const fail = (why: string): void => {
      const error = new MkError('UNAVAILABLE', `the thread running the call stopped (${why}) before it answered`, {
        details: { hint: 'retry the call' },
        retryable: true,
      })
      for (const waiting of thread.waiting.values()) waiting.reject(error)
      thread.waiting.clear()
    }
    thread.worker.on('error', (error) => fail(error.message))
    thread.worker.on('exit', (code) => {
      fail(`exit code ${code}`)
      if (!closing && threads[slot] === thread) start(slot)
    })
  }
  for (let slot = 0; slot < count; slot++) start(slot)

  const send = (slot: number, request: ThreadRequest): Promise<ThreadReply> => {
    const thread = threads[slot]
    if (thread === undefined) return Promise.reject(new MkError('INTERNAL_ERROR', `no tool thread ${slot}`))
    return new Promise((resolve, reject) => {
      thread.waiting.set(request.id, { resolve, reject })
      thread.worker.postMessage(request)
    })
  }
  const failureOf = (reply: ThreadReply): string | undefined => ('failure' in reply ? reply.failure : undefined)
  const everywhere = async (request: (id: number) => ThreadRequest): Promise<void> => {
    const replies = await Promise.all(threads.map((_, slot) => send(slot, request(nextId++))))
    const failure = replies.map(failureOf).find((text) => text !== undefined)
    if (failure !== undefined) throw new MkError('INTERNAL_ERROR', failure)
  }

  return {
    slots: count,
    threaded: true,
    async run(call, slot) {
      try {
        const reply = await send(slot, { id: nextId++, type: 'call', call })
        if ('outcome' in reply) return reply.outcome
        throw new MkError('INTERNAL_ERROR', failureOf(reply) ?? 'the tool thread answered nothing')
      } catch (error) {
        return { ok: false, error: toErrorObject(error), warnings: [] }
      }
    },
    warmWrites: (options) => everywhere((id) => ({ id, type: 'warm-writes', options })),
    closeTenant: (tenantId) => everywhere((id) => ({ id, type: 'close-tenant', tenantId })),
    async close() {
      closing = true
      await everywhere((id) => ({ id, type: 'close' })).finally(() => Promise.all(threads.map((thread) => thread.worker.terminate())))
    },
  }
}
