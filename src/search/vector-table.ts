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

/**
 * Stored vectors side by side in one block of WebAssembly memory, each row padded to a multiple
 * of four floats, with the query and the results after them: a search writes the query, the
 * kernel compares it with every row at once, and only the ranking is left to JavaScript. A
 * table never changes once built; a store whose vectors changed builds a new one.
 */
export class VectorTable {
  private readonly kernel: DotKernel = dotKernel()
  /** Floats per row: the dimensions, padded for the kernel's four lanes. */
  private readonly stride: number
  private readonly queryAt: number
  private readonly resultsAt: number
  private readonly norms: Float64Array
  private positions: Map<number, number> | undefined

  private constructor(
    /** The row id of each position. */
    readonly rowids: readonly number[],
    readonly dimensions: number,
    vectors: readonly Float32Array[],
    norms: readonly (number | undefined)[],
  ) {
    this.stride = Math.max(4, Math.ceil(dimensions / 4) * 4)
    this.queryAt = rowids.length * this.stride * 4
    this.resultsAt = this.queryAt + this.stride * 4
    const needed = Math.ceil((this.resultsAt + rowids.length * 4) / pageBytes)
    const pages = this.kernel.memory.buffer.byteLength / pageBytes
    if (needed > pages) this.kernel.memory.grow(needed - pages)
    const floats = new Float32Array(this.kernel.memory.buffer)
    this.norms = new Float64Array(rowids.length)
    vectors.forEach((vector, position) => {
      floats.set(vector, position * this.stride)
      this.norms[position] = norms[position] ?? lengthOf(vector)
    })
  }

  /**
   * A table of these rows, in the order given; rows whose vector has other dimensions than the
   * first are left out. A row may bring its vector's length (from the table it was in), else it is computed.
   */
  static of(rows: Iterable<{ rowid: number; vector: Float32Array; norm?: number | undefined }>): VectorTable {
    const rowids: number[] = []
    const vectors: Float32Array[] = []
    const norms: (number | undefined)[] = []
    let dimensions: number | undefined
    for (const { rowid, vector, norm } of rows) {
      dimensions ??= vector.length
      if (vector.length !== dimensions) continue
      rowids.push(rowid)
      vectors.push(vector)
      norms.push(norm)
    }
    return new VectorTable(rowids, dimensions ?? 0, vectors, norms)
  }

  get size(): number {
    return this.rowids.length
  }

  /** The position of a row, undefined for a row the table does not hold. */
  positionOf(rowid: number): number | undefined {
    this.positions ??= new Map(this.rowids.map((held, position) => [held, position]))
    return this.positions.get(rowid)
  }

  /** The length of the vector at a position. */
  norm(position: number): number {
    return this.norms[position] as number
  }

  /** The vector at a position: a view of the table's memory, valid as long as the table is. */
  vector(position: number): Float32Array {
    return new Float32Array(this.kernel.memory.buffer, position * this.stride * 4, this.dimensions)
  }

  /**
   * The `limit` rows nearest to the query by cosine similarity, most similar first, among the
   * positions given (every row without them); equal similarities in row id order.
   */
  nearest(query: Float32Array, limit: number, positions?: ArrayLike<number>): { rowid: number; score: number }[] {
    const count = positions?.length ?? this.size
    if (limit <= 0 || count === 0 || query.length !== this.dimensions) return []
    const buffer = this.kernel.memory.buffer
    new Float32Array(buffer, this.queryAt, this.stride).set(query)
    this.kernel.dots(0, this.size, this.stride * 4, this.queryAt, this.resultsAt)
    const dots = new Float32Array(buffer, this.resultsAt, this.size)
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
    return order.slice(0, limit).map((candidate) => ({ rowid: this.rowidAt(at, candidate), score: scores[candidate] as number }))
  }

  private rowidAt(positions: Int32Array, candidate: number): number {
    return this.rowids[positions[candidate] as number] as number
  }
}
