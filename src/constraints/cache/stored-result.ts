import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import type { Aggregates } from '../pipeline/aggregates.js'
import type { FileListing } from '../pipeline/contribution.js'
import type { Waiver } from '../waivers/inline-waivers.js'
import { BaselineTable } from './baseline-table.js'
import { readFrames, writeFramedFile } from './frames.js'
import { decodeListings, encodeListings } from './listing-codec.js'

/**
 * The result of the last check of a snapshot, kept to answer the next one
 * from what changed since (ADR 0021): `staged-result.bin` for the index,
 * `tree-result.bin` for the working tree. Each holds a header (the key, and
 * the baseline file's stat signature and content hash), the snapshot's
 * records (per path: what it was and its facts; index-records.ts,
 * tree-records.ts) and the listings and sums; `baseline.bin` the baseline's
 * entries by file, named by the baseline's content hash. Frames are
 * checksummed; a torn, damaged or foreign file is ignored, so the check
 * evaluates everything and writes a new one.
 */
export interface StoredResultHeader {
  key: string
  /** The baseline file's stat signature when it was hashed (undefined when too recent to trust). */
  baselineSignature: string | undefined
  baselineHash: string
}

export interface CheckResult {
  /** The snapshot's records, read as one buffer; the staged check writes them from the pieces of a diff. */
  records: Buffer | readonly Buffer[]
  aggregates: Aggregates
  /** The listings of the files that list anything. */
  listings: Map<string, FileListing>
  /** The waivers file's entries, parsed: its content hash is part of the key. */
  fileWaivers: Waiver[]
  /** The sum of the baseline's counts, and its version (what its entries' hashes are of). */
  baselineTotal: number
  baselineVersion: 1 | 2
}

/** A result as read: its records in one buffer. */
export type StoredResult = CheckResult & { records: Buffer }

/** Which snapshot a result is of: its file in the cache folder. */
export type ResultKind = 'staged' | 'tree'

const resultFile = (kind: ResultKind): string => `${kind}-result.bin`
const seenFile = (kind: ResultKind): string => `${kind}-seen`
const baselineFile = 'baseline.bin'

function isHeader(value: unknown): value is StoredResultHeader {
  if (typeof value !== 'object' || value === null) return false
  const header = value as Record<string, unknown>
  return (
    typeof header.key === 'string' &&
    typeof header.baselineHash === 'string' &&
    (header.baselineSignature === undefined || typeof header.baselineSignature === 'string')
  )
}

/** The body as written: the listings encoded (listing-codec.ts). */
type StoredBody = Omit<CheckResult, 'records' | 'listings'> & { listings: unknown }

function isStoredBody(value: unknown): value is StoredBody {
  if (typeof value !== 'object' || value === null) return false
  const body = value as Record<string, unknown>
  return (
    typeof body.aggregates === 'object' &&
    Array.isArray(body.fileWaivers) &&
    typeof body.baselineTotal === 'number' &&
    (body.baselineVersion === 1 || body.baselineVersion === 2)
  )
}

/** The stored header, and the rest, parsed only when the header's key is the current one. */
export function readStoredResult(directory: string, kind: ResultKind): { header: StoredResultHeader; result: () => StoredResult | undefined } | undefined {
  try {
    const [header, records, body] = readFrames(readFileSync(join(directory, resultFile(kind))))
    if (header === undefined || records === undefined || body === undefined) return undefined
    const parsed: unknown = JSON.parse(header.toString('utf8'))
    if (!isHeader(parsed)) return undefined
    return {
      header: parsed,
      result: () => {
        try {
          const rest: unknown = deserialize(body)
          if (!isStoredBody(rest)) return undefined
          const listings = decodeListings(rest.listings)
          return listings === undefined ? undefined : { ...rest, listings, records }
        } catch {
          return undefined
        }
      },
    }
  } catch {
    // Missing, unreadable, not ours: the check evaluates every file.
    return undefined
  }
}

/** Replace the stored result; a cache that cannot be written is left as it was: the check's answer does not depend on it. */
export function writeStoredResult(directory: string, kind: ResultKind, header: StoredResultHeader, result: CheckResult): void {
  const { records, listings, ...body } = result
  try {
    const stored: StoredBody = { ...body, listings: encodeListings(listings) }
    writeFramedFile(join(directory, resultFile(kind)), [Buffer.from(JSON.stringify(header)), records, serialize(stored)])
  } catch {
    // Read-only workspace, full disk: the next run evaluates every file again.
  }
}

/**
 * Whether a snapshot was checked here before: a check that finds no stored
 * result and no mark stores only the mark (ADR 0023), since a first check
 * (a fresh clone, a CI run) may well be the only one.
 */
export function snapshotSeen(directory: string, kind: ResultKind): boolean {
  return existsSync(join(directory, seenFile(kind)))
}

export function markSnapshotSeen(directory: string, kind: ResultKind): void {
  try {
    writeFramedFile(join(directory, seenFile(kind)), [])
  } catch {
    // As writeStoredResult: the next check is then a first one again.
  }
}

/** The baseline's entries by file, when stored for the baseline of this content hash. */
export function readBaselineTable(directory: string, hash: string): BaselineTable | undefined {
  try {
    const [name, table] = readFrames(readFileSync(join(directory, baselineFile)))
    if (name === undefined || table === undefined || name.toString('utf8') !== hash) return undefined
    return new BaselineTable(table)
  } catch {
    return undefined
  }
}

export function writeBaselineTable(directory: string, hash: string, table: Buffer): void {
  try {
    writeFramedFile(join(directory, baselineFile), [Buffer.from(hash), table])
  } catch {
    // As writeStoredResult.
  }
}
