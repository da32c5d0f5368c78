import { dotKernel, type DotKernel } from './dot-kernel.js'

/** The length of a vector, with the sum in doubles: a dot product over it gives the cosine. */
export function lengthOf(vector: Float32Array): number {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) * (vector[i] as number)
  return Math.sqrt(sum)
}

const pageBytes = 65_536

/** The `rank`-th largest of the values (1 = the largest), by selection in place: the order of `values` is lost. */
export function largest(values: Float64Array, rank: number): number {
  const target = values.length - rank
  let low = 0
  let high = values.length - 1
  while (low < high) {
    const pivot = values[(low + high) >>> 1] as number
    let i = low
    let j = high
    while (i <= j) {
      while ((values[i] as number) < pivot) i++
      while ((values[j] as number) > pivot) j--
      if (i <= j) {
        const swap = values[i] as number
        values[i] = values[j] as number
        values[j] = swap
        i++
        j--
      }
    }
    if (target <= j) high = j
    else if (target >= i) low = i
    else break
  }
  return values[target] as number
}

/** What changed of a table's rows: vectors new or replaced, by row id, and rows that lost theirs. */
export interface TableChange {
  set: readonly { rowid: number; vector: Float32Array }[]
  remove: readonly number[]
}

/**
 * Stored vectors side by side in one block of WebAssembly memory, each row padded to a multiple
 * of 16 floats, after the query and before the results: a search writes the query, the kernel
 * compares it with every row at once, and only the ranking is left to JavaScript. A table is
 * changed in place (see apply): rebuilding it on every write of a busy server copied every
 * vector again for each search after a write.
 */
export class VectorTable {
  private readonly kernel: DotKernel = dotKernel()
  /** Floats per row: the dimensions, padded with zeros for the kernel's 16 floats a step. */
  private readonly stride: number
  /** The query comes first, so growing the rows never moves it. */
  private readonly queryAt = 0
  private readonly rowsAt: number
  /** Rows the memory holds room for; the results follow them. */
  private capacity = 0
  private norms = new Float64Array(0)
  private readonly ids: number[] = []
  private positions: Map<number, number> | undefined

  private constructor(readonly dimensions: number) {
    this.stride = Math.max(16, Math.ceil(dimensions / 16) * 16)
    this.rowsAt = this.stride * 4
  }

  /**
   * A table of these rows, in the order given; rows whose vector has other dimensions than the
   * first are left out. A row may bring its vector's length (from the table it was in), else it is
   * computed. Each vector is copied in as it comes, so a caller that reads rows one at a time
   * (expecting about `expectedRows`) never holds them all beside the table.
   */
  static of(rows: Iterable<{ rowid: number; vector: Float32Array; norm?: number | undefined }>, expectedRows = 0): VectorTable {
    let table: VectorTable | undefined
    for (const { rowid, vector, norm } of rows) {
      if (table === undefined) {
        table = new VectorTable(vector.length)
        table.reserve(expectedRows)
      }
      if (vector.length !== table.dimensions) continue
      table.reserve(table.size + 1)
      table.place(rowid, vector, norm ?? lengthOf(vector))
    }
    return table ?? new VectorTable(0)
  }

  /** The row id of each position. */
  get rowids(): readonly number[] {
    return this.ids
  }

  get size(): number {
    return this.ids.length
  }

  /** The position of a row, undefined for a row the table does not hold. */
  positionOf(rowid: number): number | undefined {
    this.positions ??= new Map(this.ids.map((held, position) => [held, position]))
    return this.positions.get(rowid)
  }

  /** The length of the vector at a position. */
  norm(position: number): number {
    return this.norms[position] as number
  }

  /** The vector at a position: a view of the table's memory, valid until the table next changes. */
  vector(position: number): Float32Array {
    return new Float32Array(this.kernel.memory.buffer, this.floatAt(position) * 4, this.dimensions)
  }

  /**
   * Change the table in place, keeping its rows in row id order: a vector replaces the one its row
   * holds, a new row goes after the last, removed rows close up. Returns false, changing nothing,
   * when that order cannot be kept (a new row before the last, a vector of other dimensions, an
   * empty table); the caller builds a new table. Returns whether positions moved otherwise.
   */
  apply(change: TableChange): { applied: false } | { applied: true; moved: boolean } {
    const removed = new Set(change.remove.filter((rowid) => this.positionOf(rowid) !== undefined))
    const replaced: { position: number; vector: Float32Array }[] = []
    const appended: { rowid: number; vector: Float32Array }[] = []
    const last = this.ids[this.size - 1] ?? -Infinity
    for (const row of change.set) {
      if (this.size === 0 || row.vector.length !== this.dimensions) return { applied: false }
      const position = this.positionOf(row.rowid)
      if (position !== undefined) replaced.push({ position, vector: row.vector })
      else if (row.rowid > last) appended.push(row)
      else return { applied: false }
      removed.delete(row.rowid)
    }
    const floats = (): Float32Array => new Float32Array(this.kernel.memory.buffer)
    for (const { position, vector } of replaced) {
      floats().set(vector, this.floatAt(position))
      this.norms[position] = lengthOf(vector)
    }
    if (removed.size > 0) this.closeUp(removed)
    appended.sort((a, b) => a.rowid - b.rowid)
    this.reserve(this.size + appended.length)
    for (const { rowid, vector } of appended) this.place(rowid, vector, lengthOf(vector))
    return { applied: true, moved: removed.size > 0 }
  }

  /** Copy a row in after the last one, in room already reserved. */
  private place(rowid: number, vector: Float32Array, norm: number): void {
    const position = this.ids.length
    new Float32Array(this.kernel.memory.buffer).set(vector, this.floatAt(position))
    this.norms[position] = norm
    this.ids.push(rowid)
    this.positions?.set(rowid, position)
  }

  /** Remove rows, moving each later row down over the gaps. */
  private closeUp(removed: ReadonlySet<number>): void {
    const floats = new Float32Array(this.kernel.memory.buffer)
    let kept = 0
    for (let position = 0; position < this.ids.length; position++) {
      const rowid = this.ids[position] as number
      if (removed.has(rowid)) continue
      if (kept !== position) {
        floats.copyWithin(this.floatAt(kept), this.floatAt(position), this.floatAt(position) + this.stride)
        this.norms[kept] = this.norms[position] as number
        this.ids[kept] = rowid
      }
      kept++
    }
    this.ids.length = kept
    this.positions = undefined
  }

  /** Room for `rows` rows and their results, growing the memory by a quarter more than asked so appends rarely grow it. */
  private reserve(rows: number): void {
    if (rows <= this.capacity) return
    const capacity = this.capacity === 0 ? rows : Math.max(rows, Math.ceil(this.capacity * 1.25))
    const needed = Math.ceil((this.rowsAt + capacity * this.stride * 4 + capacity * 4) / pageBytes)
    const pages = this.kernel.memory.buffer.byteLength / pageBytes
    if (needed > pages) this.kernel.memory.grow(needed - pages)
    const norms = new Float64Array(capacity)
    norms.set(this.norms.subarray(0, this.size))
    this.norms = norms
    this.capacity = capacity
  }

  /** Where a row's floats start, counted in floats. */
  private floatAt(position: number): number {
    return (this.rowsAt >> 2) + position * this.stride
  }

  /**
   * The `limit` rows nearest to the query by cosine similarity, most similar first, among the
   * positions given (every row without them); equal similarities in row id order.
   */
  nearest(query: Float32Array, limit: number, positions?: ArrayLike<number>): { rowid: number; score: number }[] {
    return this.nearestAndFirst(query, limit, positions, 0).nearest
  }

  /**
   * nearest, and the query's dot products with the first `first` rows, whatever the positions
   * given: the kernel compares every row anyway, and vectorCalibration samples the first ones.
   */
  nearestAndFirst(
    query: Float32Array,
    limit: number,
    positions: ArrayLike<number> | undefined,
    first: number,
  ): { nearest: { rowid: number; score: number }[]; firstDots: number[] } {
    const count = positions?.length ?? this.size
    if (query.length !== this.dimensions || this.size === 0) return { nearest: [], firstDots: [] }
    const buffer = this.kernel.memory.buffer
    const resultsAt = this.rowsAt + this.capacity * this.stride * 4
    new Float32Array(buffer, this.queryAt, this.stride).set(query)
    this.kernel.dots(this.rowsAt, this.size, this.stride * 4, this.queryAt, resultsAt)
    const dots = new Float32Array(buffer, resultsAt, this.size)
    const firstDots = Array.from(dots.subarray(0, Math.min(first, this.size)))
    if (limit <= 0 || count === 0) return { nearest: [], firstDots }
    const queryNorm = lengthOf(query)
    const at = new Int32Array(count)
    const scores = new Float64Array(count)
    for (let candidate = 0; candidate < count; candidate++) {
      const position = positions === undefined ? candidate : (positions[candidate] as number)
      const lengths = (this.norms[position] as number) * queryNorm
      at[candidate] = position
      scores[candidate] = lengths === 0 ? 0 : Math.fround((dots[position] as number) / lengths)
    }
    // Only what can make the first `limit` is sorted: a comparator sort of every score was a
    // third of the ranking at 10,000 rows, and a sort of a copy to find the cutoff a third again.
    const cutoff = limit >= count ? -Infinity : largest(Float64Array.from(scores), limit)
    const order: number[] = []
    for (let candidate = 0; candidate < count; candidate++) if ((scores[candidate] as number) >= cutoff) order.push(candidate)
    order.sort((a, b) => (scores[b] as number) - (scores[a] as number) || this.rowidAt(at, a) - this.rowidAt(at, b))
    const nearest = order.slice(0, limit).map((candidate) => ({ rowid: this.rowidAt(at, candidate), score: scores[candidate] as number }))
    return { nearest, firstDots }
  }

  private rowidAt(positions: Int32Array, candidate: number): number {
    return this.ids[positions[candidate] as number] as number
  }
}
