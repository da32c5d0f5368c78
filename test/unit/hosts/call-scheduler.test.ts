import { describe, expect, it } from 'vitest'
import type { DispatchOutcome } from '../../../src/tools/dispatcher.js'
import { CallScheduler, callKindOf, type CallKind } from '../../../src/hosts/http/call-scheduler.js'
import type { ToolCall } from '../../../src/hosts/http/tool-call.js'
import type { CallRunner } from '../../../src/hosts/http/tool-threads.js'

/** A runner whose calls finish when the test says: it records what started, on which slot, and which tenants were closed. */
function scriptedRunner(slots: number) {
  const started: { label: string; slot: number; finish: () => void }[] = []
  const closed: string[] = []
  const runner: CallRunner = {
    slots,
    threaded: true,
    run(call, slot) {
      return new Promise<DispatchOutcome>((resolve) => {
        started.push({
          label: String(call.input.label),
          slot,
          finish: () => resolve({ ok: true, output: call.input.label, display: '', exitCode: 0, warnings: [], artifacts: [] }),
        })
      })
    },
    warmWrites: async () => undefined,
    closeTenant: async (tenantId) => void closed.push(tenantId),
    close: async () => undefined,
  }
  const finish = async (label: string): Promise<void> => {
    const call = started.find((entry) => entry.label === label)
    if (call === undefined) throw new Error(`${label} has not started`)
    call.finish()
    // Let the scheduler see the outcome and start what waits.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { runner, started: () => started.map((entry) => entry.label), closed, finish }
}

const runtime = {
  readOnly: false,
  logJson: false,
  agentId: undefined,
  sessionId: undefined,
  teamId: undefined,
  adminToken: undefined,
  production: false,
  gitIndexFile: undefined,
  author: undefined,
  credential: undefined,
  served: true,
}
const call = (tenantId: string, label: string): ToolCall => ({ tool: 'memory_search', tenantId, scope: 'default', input: { label }, runtime })
const read: CallKind = { write: false, heavy: false }
const write: CallKind = { write: true, heavy: false }
const heavy: CallKind = { write: true, heavy: true }
const settings = { maxOpenTenants: 16, maxWaitingPerTenant: 100, maxWritesPerTenant: 16, writeLeadMs: 200 }

describe('CallScheduler', () => {
  it('serves tenants in turn: a burst of one tenant waits behind itself, not in front of another tenant', async () => {
    const { runner, started, finish } = scriptedRunner(1)
    const scheduler = new CallScheduler(runner, settings)
    for (let n = 1; n <= 4; n++) void scheduler.run(call('a', `a${n}`), read)
    void scheduler.run(call('b', 'b1'), read)
    expect(started()).toEqual(['a1'])
    await finish('a1')
    // a2 was in line before b1; after it, the tenants alternate.
    await finish('a2')
    await finish('b1')
    await finish('a3')
    expect(started()).toEqual(['a1', 'a2', 'b1', 'a3', 'a4'])
  })

  it('admits a tenant’s write before its searches already waiting', async () => {
    const { runner, started, finish } = scriptedRunner(1)
    const scheduler = new CallScheduler(runner, settings)
    for (let n = 1; n <= 3; n++) void scheduler.run(call('a', `search${n}`), read)
    void scheduler.run(call('a', 'add'), write)
    await finish('search1')
    expect(started()).toEqual(['search1', 'add'])
  })

  it('admits a search before a write when it has waited longer than the write lead', async () => {
    const { runner, started, finish } = scriptedRunner(1)
    // A lead of 0 ms: a write is wanted no sooner than a search, so each goes in the order it came.
    const scheduler = new CallScheduler(runner, { ...settings, writeLeadMs: 0 })
    void scheduler.run(call('a', 'search1'), read)
    void scheduler.run(call('a', 'search2'), read)
    await new Promise((resolve) => setTimeout(resolve, 5))
    void scheduler.run(call('a', 'add'), write)
    await finish('search1')
    expect(started()).toEqual(['search1', 'search2'])
    await finish('search2')
    expect(started()).toEqual(['search1', 'search2', 'add'])
  })

  it('admits writes on every free thread by default', async () => {
    const { runner, started } = scriptedRunner(2)
    const scheduler = new CallScheduler(runner, settings)
    void scheduler.run(call('a', 'add1'), write)
    void scheduler.run(call('a', 'add2'), write)
    void scheduler.run(call('a', 'search1'), read)
    expect(started()).toEqual(['add1', 'add2'])
  })

  it('beyond the bound of writes at once, a search takes the free thread instead of the tenant’s next write', async () => {
    const { runner, started, finish } = scriptedRunner(2)
    const scheduler = new CallScheduler(runner, { ...settings, maxWritesPerTenant: 1 })
    void scheduler.run(call('a', 'add1'), write)
    void scheduler.run(call('a', 'add2'), write)
    void scheduler.run(call('a', 'search1'), read)
    // add2 would only wait on add1's folder lock: the second thread serves the search.
    expect(started()).toEqual(['add1', 'search1'])
    await finish('search1')
    expect(started()).toEqual(['add1', 'search1'])
    await finish('add1')
    expect(started()).toEqual(['add1', 'search1', 'add2'])
    // The bound is the tenant's: another tenant's write is not held back.
    void scheduler.run(call('b', 'add-b'), write)
    expect(started()).toEqual(['add1', 'search1', 'add2', 'add-b'])
  })

  it('tells the caller how long a call waited for a thread and how long it ran', async () => {
    const { runner, finish } = scriptedRunner(1)
    const scheduler = new CallScheduler(runner, settings)
    const times: { label: string; waitedMs: number; ranMs: number }[] = []
    const first = scheduler.run(call('a', 'first'), read, (t) => times.push({ label: 'first', ...t }))
    const second = scheduler.run(call('a', 'second'), read, (t) => times.push({ label: 'second', ...t }))
    await finish('first')
    await finish('second')
    await Promise.all([first, second])
    expect(times.map((entry) => entry.label)).toEqual(['first', 'second'])
    for (const entry of times) {
      expect(entry.waitedMs).toBeGreaterThanOrEqual(0)
      expect(entry.ranMs).toBeGreaterThanOrEqual(0)
    }
  })

  it('never gives heavy calls the last free thread, and runs one heavy call per tenant at a time', async () => {
    const { runner, started, finish } = scriptedRunner(4)
    const scheduler = new CallScheduler(runner, settings)
    void scheduler.run(call('a', 'ingest-a1'), heavy)
    void scheduler.run(call('a', 'ingest-a2'), heavy)
    void scheduler.run(call('b', 'ingest-b'), heavy)
    void scheduler.run(call('c', 'ingest-c'), heavy)
    void scheduler.run(call('d', 'ingest-d'), heavy)
    // a waits for its own first ingest; three heavy calls take three of the four threads.
    expect(started()).toEqual(['ingest-a1', 'ingest-b', 'ingest-c'])
    const search = scheduler.run(call('d', 'search-d'), read)
    expect(started()).toEqual(['ingest-a1', 'ingest-b', 'ingest-c', 'search-d'])
    await finish('search-d')
    await expect(search).resolves.toMatchObject({ ok: true, output: 'search-d' })
    expect(started()).toHaveLength(4)
    await finish('ingest-a1')
    expect(started().at(-1)).toBe('ingest-a2')
    await finish('ingest-b')
    expect(started().at(-1)).toBe('ingest-d')
  })

  it('closes the least recently used idle tenant over the bound, never one with calls running, and reopens on the next call', async () => {
    const { runner, closed, finish } = scriptedRunner(4)
    const scheduler = new CallScheduler(runner, { ...settings, maxOpenTenants: 2 })
    void scheduler.run(call('a', 'a1'), read)
    await finish('a1')
    void scheduler.run(call('b', 'b1'), read)
    void scheduler.run(call('c', 'c1'), read)
    expect(closed).toEqual(['a'])
    expect(scheduler.openTenants).toEqual(['b', 'c'])
    void scheduler.run(call('a', 'a2'), read)
    // b and c are both busy: over the bound for now, and nothing is closed under a running call.
    expect(closed).toEqual(['a'])
    await finish('b1')
    expect(closed).toEqual(['a', 'b'])
    expect(scheduler.openTenants).toEqual(['c', 'a'])
  })

  it('refuses a call with RATE_LIMITED when its tenant already has the most calls waiting', async () => {
    const { runner } = scriptedRunner(1)
    const scheduler = new CallScheduler(runner, { ...settings, maxWaitingPerTenant: 2 })
    for (let n = 1; n <= 3; n++) void scheduler.run(call('a', `a${n}`), read)
    expect(() => scheduler.run(call('a', 'a4'), read)).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED', details: expect.objectContaining({ reason: 'tenant_queue_full' }) }),
    )
    expect(() => scheduler.run(call('b', 'b1'), read)).not.toThrow()
  })

  it('counts large bodies and ingest-like tools as heavy, and state changes as writes', () => {
    expect(callKindOf({ name: 'memory_search', tier: 'read_only' }, 100, 65536)).toEqual({ write: false, heavy: false })
    expect(callKindOf({ name: 'memory_add', tier: 'write' }, 100, 65536)).toEqual({ write: true, heavy: false })
    expect(callKindOf({ name: 'memory_add', tier: 'write' }, 70000, 65536)).toEqual({ write: true, heavy: true })
    expect(callKindOf({ name: 'rules_upsert_markdown', tier: 'workspace' }, 10, 65536)).toEqual({ write: true, heavy: true })
  })
})
