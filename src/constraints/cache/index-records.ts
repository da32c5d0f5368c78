import { uint16At, uint32At, visitStagedEntries } from '../../git/git-index.js'
import { decodeFacts, encodeFacts, type FileFacts } from '../pipeline/contribution.js'

/**
 * The git index of a run as a cache keeps it: one record per staged entry, in
 * the index's order, with the facts the entry contributed:
 * `u16 path length, path, 20-byte object id, u32 mode, u16 facts length, facts (JSON)`.
 * A later run walks its own index against these bytes and decodes nothing for
 * an entry whose path, object id and mode are unchanged.
 */

/** An entry of the current index that a record does not hold: new, or of other content or mode. */
export interface ChangedEntry {
  gitPath: string
  oid: string
  mode: number
}

export interface IndexDiff {
  changed: ChangedEntry[]
  /** The records of entries that are gone or changed: what their facts added must be taken back. */
  removed: { gitPath: string; facts: FileFacts }[]
  /** The new records in order: byte ranges of the old ones, and the changed entries, whose facts are known once they are evaluated. */
  pieces: (Buffer | ChangedEntry)[]
}

const oidBytes = 20

/**
 * Byte comparisons written out: paths and object ids are a few dozen bytes,
 * and Buffer#compare's argument checks cost more than the comparison (44 ms
 * of a 50,000-entry index).
 */
function compareBytes(a: Buffer, aStart: number, aEnd: number, b: Buffer, bStart: number, bEnd: number): number {
  const length = Math.min(aEnd - aStart, bEnd - bStart)
  for (let offset = 0; offset < length; offset++) {
    const difference = (a[aStart + offset] as number) - (b[bStart + offset] as number)
    if (difference !== 0) return difference
  }
  return aEnd - aStart - (bEnd - bStart)
}

export function encodeRecord(entry: ChangedEntry, facts: FileFacts): Buffer {
  const path = Buffer.from(entry.gitPath)
  const encodedFacts = Buffer.from(encodeFacts(facts))
  const record = Buffer.alloc(2 + path.length + oidBytes + 4 + 2 + encodedFacts.length)
  let offset = record.writeUInt16BE(path.length, 0)
  offset += path.copy(record, offset)
  offset += record.write(entry.oid, offset, 'hex')
  offset = record.writeUInt32BE(entry.mode, offset)
  offset = record.writeUInt16BE(encodedFacts.length, offset)
  encodedFacts.copy(record, offset)
  return record
}

/** The records after the changed entries were evaluated, in pieces. */
export function recordPieces(pieces: readonly (Buffer | ChangedEntry)[], factsOf: (entry: ChangedEntry) => FileFacts): Buffer[] {
  return pieces.map((piece) => (Buffer.isBuffer(piece) ? piece : encodeRecord(piece, factsOf(piece))))
}

/**
 * The entries of `index` that `records` does not hold as they are, and the
 * records of entries gone or changed; undefined when more than `limit`
 * entries changed (a whole evaluation is then cheaper than many small ones).
 * Both are in git's order (bytes of the path), so one pass compares them.
 */
export function diffIndex(index: Buffer, records: Buffer, limit: number): IndexDiff | undefined {
  const diff: IndexDiff = { changed: [], removed: [], pieces: [] }
  let record = 0
  let unchangedFrom = 0
  const keyEnd = (at: number): number => at + 2 + uint16At(records, at)
  const recordEnd = (at: number): number => {
    const factsAt = keyEnd(at) + oidBytes + 4
    return factsAt + 2 + uint16At(records, factsAt)
  }
  const remove = (at: number): void => {
    const end = keyEnd(at)
    const factsAt = end + oidBytes + 4
    diff.removed.push({ gitPath: records.toString('utf8', at + 2, end), facts: decodeFacts(records.toString('utf8', factsAt + 2, recordEnd(at))) })
  }
  /** Close the run of unchanged records before `at`; the record at `at` is replaced or dropped. */
  const cut = (at: number, next: number): void => {
    if (at > unchangedFrom) diff.pieces.push(records.subarray(unchangedFrom, at))
    unchangedFrom = next
  }
  let tooMany = false
  visitStagedEntries(index, (nameStart, nameEnd, oidStart, mode) => {
    if (tooMany) return
    let same = false
    while (record < records.length) {
      const end = keyEnd(record)
      const order = compareBytes(records, record + 2, end, index, nameStart, nameEnd)
      if (order > 0) break
      const next = recordEnd(record)
      if (order === 0) {
        same = compareBytes(records, end, end + oidBytes, index, oidStart, oidStart + oidBytes) === 0 && uint32At(records, end + oidBytes) === mode
        if (!same) {
          remove(record)
          cut(record, next)
        }
        record = next
        break
      }
      remove(record)
      cut(record, next)
      record = next
    }
    if (same) return
    const entry = { gitPath: index.toString('utf8', nameStart, nameEnd), oid: index.toString('hex', oidStart, oidStart + oidBytes), mode }
    cut(record, record)
    diff.changed.push(entry)
    diff.pieces.push(entry)
    if (diff.changed.length + diff.removed.length > limit) tooMany = true
  })
  if (tooMany) return undefined
  while (record < records.length) {
    const next = recordEnd(record)
    remove(record)
    cut(record, next)
    record = next
  }
  cut(records.length, records.length)
  return diff.changed.length + diff.removed.length > limit ? undefined : diff
}
