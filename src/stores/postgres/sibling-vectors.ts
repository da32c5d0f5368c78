import { BroadcastChannel } from 'node:worker_threads'
import { sha256Hex } from '../../hash.js'
import { VectorTable } from '../../search/vector-table.js'

/**
 * A scope's vectors as one thread read them from the database, in memory every thread of the
 * process can see (SharedArrayBuffer): a sibling builds its table from these instead of reading
 * every vector again. `readFrom` is the time (Date.now()) before the read began: the snapshot
 * holds every change committed before it.
 */
interface Snapshot {
  key: string
  readFrom: number
  dimensions: number
  rowids: Float64Array
  norms: Float64Array
  floats: Float32Array
}

type Message =
  | { type: 'loading'; key: string; readFrom: number }
  | ({ type: 'vectors' } & Snapshot)
  | { type: 'failed'; key: string; readFrom: number }
  /** A thread heard of a change of the scope (or lost its listener: every scope) at `at`. */
  | { type: 'dropped'; key: string | undefined; at: number }
  /** A thread that just started asks for the snapshots the others hold (a channel does not replay what was posted before). */
  | { type: 'hello' }

/** How long a thread waits for a sibling's read of the same scope before reading it itself. */
const siblingWaitMs = 60_000

/**
 * The threads of one process (mk serve's tool threads) each hold a scope's vectors; without this
 * each read them all from the database (at 100,000 vectors, seconds of the database's and the
 * thread's CPU each, and the other threads' searches waited for cores meanwhile). One thread
 * reads, the others copy its snapshot, or wait for its read when it is under way. Each thread
 * listens for changes before it reads and tells the others of every change it hears: a snapshot
 * is taken only when it was read after the last change of the scope any thread heard of.
 */
export class SiblingVectors {
  private readonly channel: BroadcastChannel
  private readonly offered = new Map<string, Snapshot>()
  private readonly loading = new Map<string, { readFrom: number; settled: Promise<void>; settle: () => void }>()
  /** When a thread of the process last heard of a change of each scope, and of every scope. */
  private readonly droppedAt = new Map<string, number>()
  private droppedAllAt = -Infinity
  private closed = false

  constructor(database: string) {
    this.channel = new BroadcastChannel(`mk-held-vectors-${sha256Hex(database).slice(0, 24)}`)
    this.channel.unref()
    this.channel.onmessage = (event: unknown) => this.receive((event as { data: Message }).data)
    this.post({ type: 'hello' })
  }

  private receive(message: Message): void {
    if (message.type === 'dropped') {
      this.forget(message.key, message.at)
      return
    }
    if (message.type === 'hello') {
      for (const snapshot of this.offered.values()) if (snapshot.readFrom > this.trustedAfter(snapshot.key)) this.post({ type: 'vectors', ...snapshot })
      return
    }
    if (message.type === 'loading') {
      let settle = (): void => undefined
      const settled = new Promise<void>((resolve) => (settle = resolve))
      this.loading.get(message.key)?.settle()
      this.loading.set(message.key, { readFrom: message.readFrom, settled, settle })
      return
    }
    const waiting = this.loading.get(message.key)
    if (waiting !== undefined && waiting.readFrom <= message.readFrom) {
      this.loading.delete(message.key)
      waiting.settle()
    }
    if (message.type === 'vectors' && (this.offered.get(message.key)?.readFrom ?? -Infinity) < message.readFrom) {
      const { key, readFrom, dimensions, rowids, norms, floats } = message
      this.offered.set(key, { key, readFrom, dimensions, rowids, norms, floats })
    }
  }

  /**
   * A sibling's table of the scope read after the last change of it any thread heard of: copied
   * from a snapshot, or after waiting for a sibling's read under way. Undefined: this thread reads it.
   */
  async table(key: string): Promise<VectorTable | undefined> {
    const waiting = this.loading.get(key)
    if (waiting !== undefined && waiting.readFrom > this.trustedAfter(key) && this.usable(key) === undefined) {
      const timer = new Promise<void>((resolve) => setTimeout(resolve, siblingWaitMs).unref())
      await Promise.race([waiting.settled, timer])
    }
    const snapshot = this.usable(key)
    if (snapshot === undefined) return undefined
    const { dimensions, rowids, norms, floats } = snapshot
    return VectorTable.of(
      Array.from(rowids, (rowid, position) => ({
        rowid,
        vector: floats.subarray(position * dimensions, (position + 1) * dimensions),
        norm: norms[position],
      })),
    )
  }

  private usable(key: string): Snapshot | undefined {
    const snapshot = this.offered.get(key)
    return snapshot !== undefined && snapshot.readFrom > this.trustedAfter(key) ? snapshot : undefined
  }

  /** A read begun after this instant holds every change of the scope a thread of this process heard of (strictly: equal milliseconds may hold either order). */
  private trustedAfter(key: string): number {
    return Math.max(this.droppedAt.get(key) ?? -Infinity, this.droppedAllAt)
  }

  private forget(key: string | undefined, at: number): void {
    if (key === undefined) {
      this.droppedAllAt = Math.max(this.droppedAllAt, at)
      this.offered.clear()
      return
    }
    this.droppedAt.set(key, Math.max(this.droppedAt.get(key) ?? -Infinity, at))
    this.offered.delete(key)
  }

  /** Tell the siblings this thread is reading the scope (they wait for it rather than read it too). */
  reading(key: string, readFrom: number): void {
    this.post({ type: 'loading', key, readFrom } satisfies Message)
  }

  /** Give the siblings what this thread read (or that its read failed). */
  read(key: string, readFrom: number, table: VectorTable | undefined): void {
    // A read a change overtook is not offered: a thread that starts later could not tell.
    const snapshot = table === undefined || table.size === 0 || readFrom <= this.trustedAfter(key) ? undefined : snapshotOf(key, readFrom, table)
    if (snapshot === undefined) {
      this.post({ type: 'failed', key, readFrom } satisfies Message)
      return
    }
    // Kept to offer again to a thread that starts later (the memory is the siblings' copy: shared, not another one).
    this.offered.set(key, snapshot)
    this.post({ type: 'vectors', ...snapshot })
  }

  /** This thread heard of a change of the scope (undefined: lost its listener, every scope): no snapshot read before now is taken, in any thread. */
  dropped(key: string | undefined): void {
    const at = Date.now()
    this.forget(key, at)
    this.post({ type: 'dropped', key, at } satisfies Message)
  }

  /** Closed, a thread posts nothing (its listener's end comes after). */
  private post(message: Message): void {
    if (!this.closed) this.channel.postMessage(message)
  }

  close(): void {
    this.closed = true
    this.offered.clear()
    for (const waiting of this.loading.values()) waiting.settle()
    this.loading.clear()
    this.channel.close()
  }
}

/** The table's rows in shared memory; undefined when the process cannot spare it (the siblings read for themselves). */
function snapshotOf(key: string, readFrom: number, table: VectorTable): Snapshot | undefined {
  const { dimensions, size } = table
  try {
    const rowids = new Float64Array(new SharedArrayBuffer(size * 8))
    const norms = new Float64Array(new SharedArrayBuffer(size * 8))
    const floats = new Float32Array(new SharedArrayBuffer(size * dimensions * 4))
    for (let position = 0; position < size; position++) {
      rowids[position] = table.rowids[position] as number
      norms[position] = table.norm(position)
      floats.set(table.vector(position), position * dimensions)
    }
    return { key, readFrom, dimensions, rowids, norms, floats }
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}
