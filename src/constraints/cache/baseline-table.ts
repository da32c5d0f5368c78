import type { FileBaseline } from '../waivers/baseline.js'

/**
 * A baseline's entries by file, as bytes a run can look a few files up in
 * without parsing the rest: `u32 count`, `u32 offsets` (count + 1, into the
 * records), then per file, sorted by the bytes of its path,
 * `u16 path length, path, entries (JSON [key, count] pairs)`. A 50,000-file
 * baseline is 10 MB of JSON; the pre-commit hook needs the entries of the
 * files it evaluates.
 */
export function encodeBaselineTable(byFile: ReadonlyMap<string, ReadonlyMap<string, number>>): Buffer {
  const files = [...byFile.keys()].map((file) => Buffer.from(file)).sort(Buffer.compare)
  const records = files.map((path) => {
    const entries = Buffer.from(JSON.stringify([...(byFile.get(path.toString('utf8')) ?? [])]))
    const length = Buffer.alloc(2)
    length.writeUInt16BE(path.length)
    return Buffer.concat([length, path, entries])
  })
  const head = Buffer.alloc(4 + 4 * (records.length + 1))
  head.writeUInt32BE(records.length, 0)
  let offset = 0
  records.forEach((record, index) => {
    head.writeUInt32BE(offset, 4 + 4 * index)
    offset += record.length
  })
  head.writeUInt32BE(offset, 4 + 4 * records.length)
  return Buffer.concat([head, ...records])
}

export class BaselineTable {
  private readonly count: number
  private readonly dataStart: number

  constructor(private readonly bytes: Buffer) {
    this.count = bytes.readUInt32BE(0)
    this.dataStart = 4 + 4 * (this.count + 1)
    if (this.dataStart + this.offset(this.count) !== bytes.length) throw new RangeError('not a baseline table')
  }

  private offset(index: number): number {
    return this.bytes.readUInt32BE(4 + 4 * index)
  }

  /** The entries of one file, found by binary search over the sorted paths. */
  entriesOf(file: string): FileBaseline | undefined {
    const wanted = Buffer.from(file)
    let low = 0
    let high = this.count - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const start = this.dataStart + this.offset(middle)
      const pathEnd = start + 2 + this.bytes.readUInt16BE(start)
      const order = this.bytes.compare(wanted, 0, wanted.length, start + 2, pathEnd)
      if (order === 0) {
        const pairs: unknown = JSON.parse(this.bytes.toString('utf8', pathEnd, this.dataStart + this.offset(middle + 1)))
        if (!Array.isArray(pairs)) throw new TypeError('not baseline entries')
        return new Map(pairs as [string, number][])
      }
      if (order < 0) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }
}
