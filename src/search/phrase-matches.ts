import type Database from 'better-sqlite3'
import { statement } from './statements.js'

/** Every document holding one FTS5 phrase, in row id order, with the phrase's part of a query's BM25 in it (higher is better). */
export interface PhraseMatches {
  rowids: Int32Array
  bm25: Float64Array
}

/** The rows and BM25 parts an aggregate collects, one row at a time, in row id order. */
class Collected {
  rowids = new Int32Array(256)
  bm25 = new Float64Array(256)
  count = 0

  add(rowid: number, bm25: number): void {
    if (this.count === this.rowids.length) {
      const [rowids, scores] = [new Int32Array(this.count * 2), new Float64Array(this.count * 2)]
      rowids.set(this.rowids)
      scores.set(this.bm25)
      ;[this.rowids, this.bm25] = [rowids, scores]
    }
    this.rowids[this.count] = rowid
    this.bm25[this.count] = bm25
    this.count++
  }

  /** The BM25 parts (8 bytes each), then the row ids (4 bytes each). */
  packed(): Buffer {
    return Buffer.concat([Buffer.from(this.bm25.buffer, 0, this.count * 8), Buffer.from(this.rowids.buffer, 0, this.count * 4)])
  }
}

const withCollector = new WeakSet<Database.Database>()

/**
 * One aggregate collects a phrase's matches into a single value: returned as rows, the 5,700
 * matches of a bench question's phrases at 10,000 memories cost 5.4 ms, collected 4.0 ms.
 */
function registerCollector(db: Database.Database): void {
  if (withCollector.has(db)) return
  const step = (collected: Collected, rowid: number, bm25: number): void => collected.add(rowid, bm25)
  db.aggregate<Collected>('mk_phrase_matches', {
    start: () => new Collected(),
    // @types/better-sqlite3 declares a step of one argument; SQLite passes it each of the call's.
    step: step as unknown as (collected: Collected) => void,
    result: (collected) => collected.packed(),
  })
  withCollector.add(db)
}

/** The matches of one phrase, read from the index. */
export function readPhraseMatches(db: Database.Database, phrase: string): PhraseMatches {
  registerCollector(db)
  // FTS5's bm25() cannot be an aggregate's argument directly: the subquery, kept apart by its LIMIT, computes it.
  const packed = statement(
    db,
    'SELECT mk_phrase_matches(rowid, bm25) FROM (SELECT rowid, -bm25(docs_fts) AS bm25 FROM docs_fts WHERE docs_fts MATCH ? ORDER BY rowid LIMIT -1)',
    'pluck',
  ).get(`"${phrase}"`) as Buffer | null
  // Copied into memory of their own: the packed value's bytes need not be aligned for a Float64Array.
  const bytes = packed === null ? new Uint8Array(0) : new Uint8Array(packed)
  const count = bytes.length / 12
  return { bm25: new Float64Array(bytes.buffer, 0, count), rowids: new Int32Array(bytes.buffer, count * 8, count) }
}

/** Whether a phrase's matches include this row (a binary search of the row ids). */
export function holds(matches: PhraseMatches, rowid: number): boolean {
  const { rowids } = matches
  let low = 0
  let high = rowids.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = rowids[middle] as number
    if (at === rowid) return true
    if (at < rowid) low = middle + 1
    else high = middle - 1
  }
  return false
}

/**
 * Each document's BM25 for a query of these phrases (in the query's order): FTS5 adds up each
 * phrase's part, in that order, and a phrase's part depends only on the phrase, the document and
 * the whole index (the phrase's idf, the average length), so the sum is the one FTS5 computes for
 * the query, to the last bit.
 */
export function summedBm25(phrases: readonly PhraseMatches[]): Map<number, number> {
  const sums = new Map<number, number>()
  for (const { rowids, bm25 } of phrases) {
    for (let n = 0; n < rowids.length; n++) {
      const rowid = rowids[n] as number
      sums.set(rowid, (sums.get(rowid) ?? 0) + (bm25[n] as number))
    }
  }
  return sums
}

/**
 * The matches of the phrases a long-lived connection's searches asked for, until the documents
 * change (the owner clears it): a team's questions share most of their words, and reading a
 * phrase's matches is most of a full-text search (3 of 4.5 ms at 10,000 memories). The phrases
 * used longest ago go first once more than `mostRows` rows (12 bytes each: 3 MB by default) are kept.
 */
export class PhraseMatchCache {
  private readonly kept = new Map<string, PhraseMatches>()
  private rows = 0

  constructor(private readonly mostRows = 250_000) {}

  matchesOf(phrase: string, read: (phrase: string) => PhraseMatches): PhraseMatches {
    const known = this.kept.get(phrase)
    if (known !== undefined) {
      // Map order is use order: the first entry is the one used longest ago.
      this.kept.delete(phrase)
      this.kept.set(phrase, known)
      return known
    }
    const matches = read(phrase)
    this.kept.set(phrase, matches)
    this.rows += matches.rowids.length
    for (const [oldest, dropped] of this.kept) {
      if (this.rows <= this.mostRows) break
      this.kept.delete(oldest)
      this.rows -= dropped.rowids.length
    }
    return matches
  }

  clear(): void {
    this.kept.clear()
    this.rows = 0
  }
}
