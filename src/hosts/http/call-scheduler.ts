import { MkError } from '../../errors.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import type { ToolCall } from './tool-call.js'
import type { CallRunner } from './tool-threads.js'

/**
 * How a call queues: `write` calls change a tenant's store and go before its searches (those that
 * arrived up to the write lead before them), so a write is admitted at the next free thread (up to
 * the tenant's bound of writes at once); `heavy` calls (an ingest, a rebuild, an evaluation,
 * any large body) may take every thread but one, so reads always have a thread of their own.
 */
export interface CallKind {
  write: boolean
  heavy: boolean
}

/** Tools whose one call can take seconds of a thread: ingesting, consolidating, maintaining, rebuilding, evaluating, syncing. */
const heavyTools = new Set([
  'rules_upsert_markdown',
  'memory_consolidate',
  'memory_maintain',
  'memory_rehydrate',
  'index_rebuild',
  'index_update',
  'eval_run',
  'knowledge_check',
  'sync_now',
  'model_pull',
])

export function callKindOf(tool: { name: string; tier: string }, bodyBytes: number, heavyBodyBytes: number): CallKind {
  return { write: tool.tier !== 'read_only', heavy: heavyTools.has(tool.name) || bodyBytes >= heavyBodyBytes }
}

export interface SchedulerSettings {
  /** Tenants whose indexes and models stay open; beyond it the least recently used idle one is closed. */
  maxOpenTenants: number
  /** Calls one tenant may have waiting; more are refused with RATE_LIMITED. */
  maxWaitingPerTenant: number
  /** Writes of one tenant that run at once; beyond it its searches take the free threads. */
  maxWritesPerTenant: number
  /**
   * How much sooner a write is wanted than a search: a write goes before the tenant's searches
   * that arrived less than this long before it, and after those that have waited longer.
   */
  writeLeadMs: number
}

/** How long a call waited for a thread, and how long its thread took to answer it. */
export interface CallTimes {
  waitedMs: number
  ranMs: number
}

interface Job {
  call: ToolCall
  kind: CallKind
  queuedAt: number
  settle: (outcome: DispatchOutcome) => void
  timed: ((times: CallTimes) => void) | undefined
}

interface TenantQueue {
  writes: Job[]
  reads: Job[]
  heavy: Job[]
  running: number
  heavyRunning: number
  /** The tenant's writes (not heavy calls) running now: at most maxWritesPerTenant. */
  writesRunning: number
}

const waitingOf = (queue: TenantQueue): number => queue.writes.length + queue.reads.length + queue.heavy.length

/**
 * Admits tool calls to the runner's threads: a queue per tenant, served in turn, so one
 * tenant's burst waits behind itself and never in front of another tenant; writes before
 * searches within a tenant, up to a bound of writes at once, beyond which a search never waits
 * behind a write while a thread is free; and a bound on open tenants, closing the least recently used.
 */
export class CallScheduler {
  /** Open tenants, least recently used first. */
  private readonly tenants = new Map<string, TenantQueue>()
  /** Tenants with calls waiting, in the order they get their next turn. */
  private readonly turns: string[] = []
  private readonly freeSlots: number[]
  private readonly heavySlots: number
  private heavyRunning = 0
  private readonly closing = new Set<Promise<void>>()

  constructor(
    private readonly runner: CallRunner,
    private readonly settings: SchedulerSettings,
  ) {
    this.freeSlots = Array.from({ length: runner.slots }, (_, slot) => runner.slots - 1 - slot)
    this.heavySlots = Math.max(1, runner.slots - 1)
  }

  /** Tenants open now, least recently used first. */
  get openTenants(): string[] {
    return [...this.tenants.keys()]
  }

  /** Queues a call in its tenant's turn; `timed` learns how long it waited and ran, before the outcome settles. */
  run(call: ToolCall, kind: CallKind, timed?: (times: CallTimes) => void): Promise<DispatchOutcome> {
    const queue = this.tenants.get(call.tenantId) ?? { writes: [], reads: [], heavy: [], running: 0, heavyRunning: 0, writesRunning: 0 }
    if (waitingOf(queue) >= this.settings.maxWaitingPerTenant) {
      throw new MkError('RATE_LIMITED', `tenant "${call.tenantId}" already has ${waitingOf(queue)} calls waiting for a thread`, {
        details: { reason: 'tenant_queue_full', retry_after_s: 1, hint: 'retry after 1 s, or send fewer calls at once' },
        retryable: true,
      })
    }
    this.tenants.delete(call.tenantId)
    this.tenants.set(call.tenantId, queue)
    return new Promise((settle) => {
      const job: Job = { call, kind, queuedAt: performance.now(), settle, timed }
      if (kind.heavy) queue.heavy.push(job)
      else if (kind.write) queue.writes.push(job)
      else queue.reads.push(job)
      if (!this.turns.includes(call.tenantId)) this.turns.push(call.tenantId)
      this.closeIdleTenants()
      this.startWaiting()
    })
  }

  /** Waits for tenants being closed, then closes the runner (every thread's tenants). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.closing])
    await this.runner.close()
  }

  private takeNext(queue: TenantQueue): Job | undefined {
    // Beyond the bound a tenant's writes leave the free threads to its searches (two writes of one
    // folder at once also wait on each other's lock, a thread idle that a search could have used).
    if (queue.writesRunning < this.settings.maxWritesPerTenant) {
      const [write, read] = [queue.writes[0], queue.reads[0]]
      if (write !== undefined && (read === undefined || write.queuedAt - read.queuedAt <= this.settings.writeLeadMs)) return queue.writes.shift()
    }
    // One heavy call per tenant at a time, and never on the last free thread.
    if (queue.heavy.length > 0 && queue.heavyRunning === 0 && this.heavyRunning < this.heavySlots) return queue.heavy.shift()
    return queue.reads.shift()
  }

  private startWaiting(): void {
    while (this.freeSlots.length > 0) {
      const next = this.nextJob()
      if (next === undefined) return
      this.start(next.tenantId, next.job)
    }
  }

  private nextJob(): { tenantId: string; job: Job } | undefined {
    for (let turn = 0; turn < this.turns.length; turn++) {
      const tenantId = this.turns[turn] as string
      const queue = this.tenants.get(tenantId)
      const job = queue === undefined ? undefined : this.takeNext(queue)
      if (queue === undefined || job === undefined) continue
      // Served: to the back of the line, if it still has calls waiting.
      this.turns.splice(turn, 1)
      if (waitingOf(queue) > 0) this.turns.push(tenantId)
      return { tenantId, job }
    }
    return undefined
  }

  private start(tenantId: string, job: Job): void {
    const slot = this.freeSlots.pop() as number
    const queue = this.tenants.get(tenantId) as TenantQueue
    queue.running++
    const countedWrite = job.kind.write && !job.kind.heavy
    if (countedWrite) queue.writesRunning++
    if (job.kind.heavy) {
      queue.heavyRunning++
      this.heavyRunning++
    }
    const startedAt = performance.now()
    void this.runner.run(job.call, slot).then((outcome) => {
      job.timed?.({ waitedMs: startedAt - job.queuedAt, ranMs: performance.now() - startedAt })
      queue.running--
      if (countedWrite) queue.writesRunning--
      if (job.kind.heavy) {
        queue.heavyRunning--
        this.heavyRunning--
      }
      this.freeSlots.push(slot)
      job.settle(outcome)
      this.closeIdleTenants()
      this.startWaiting()
    })
  }

  /** Over the bound, the least recently used tenants with nothing running or waiting are closed; busy ones stay open. */
  private closeIdleTenants(): void {
    for (const [tenantId, queue] of this.tenants) {
      if (this.tenants.size <= this.settings.maxOpenTenants) return
      if (queue.running > 0 || waitingOf(queue) > 0) continue
      this.tenants.delete(tenantId)
      const closed = this.runner.closeTenant(tenantId).catch(() => undefined)
      this.closing.add(closed)
      void closed.finally(() => this.closing.delete(closed))
    }
  }
}
