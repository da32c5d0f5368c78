import { join } from 'node:path'
import { baselineView, settlementOf, type CheckPreparation } from '../pipeline/prepare.js'
import type { CheckReport } from '../pipeline/report.js'
import { encodeBaselineTable, type BaselineTable } from '../cache/baseline-table.js'
import {
  readBaselineTable,
  readStoredResult,
  writeBaselineTable,
  writeStoredResult,
  type ResultKind,
  type StoredResult,
  type StoredResultHeader,
} from '../cache/stored-result.js'
import { parseBaseline } from '../waivers/baseline.js'
import type { Waiver } from '../waivers/inline-waivers.js'
import { parseFileWaivers } from '../waivers/waivers.js'
import type { Aggregates } from '../pipeline/aggregates.js'
import type { FileListing } from '../pipeline/contribution.js'
import { readBytesIfExists } from '../../fs/read-if-exists.js'
import { sha256Hex } from '../../hash.js'
import { resultHeader } from './result-key.js'
import type { Settlement } from '../pipeline/settle-file.js'

/** How a whole evaluation settles findings, from the waivers file and the baseline as read for the result's header. */
export interface WholeSettlement {
  settlement: Settlement
  fileWaivers: Waiver[]
  /** The baseline's entries by file and their sum; undefined when no baseline applies. */
  grouped: ReturnType<typeof baselineView> | undefined
  baselineVersion: 1 | 2
  /**
   * Whether the baseline parsed is the one the header names. When its stat
   * data matched, the header took the stored hash and the file is read only
   * now: rewritten in between, it is not, and nothing may be stored under
   * that hash (the table is shared by both snapshots' results).
   */
  storable: boolean
}

function baselineMatches(header: StoredResultHeader, read: Buffer | undefined): boolean {
  return read === undefined ? header.baselineHash === 'none' : sha256Hex(read) === header.baselineHash
}

export function wholeSettlement(
  preparation: CheckPreparation,
  header: StoredResultHeader,
  waiversBytes: Buffer | undefined,
  baselineBytes: Buffer | undefined,
): WholeSettlement {
  const { workspace, options } = preparation
  const readNow = baselineBytes === undefined && options.useBaseline
  const bytesOfBaseline = readNow ? readBytesIfExists(join(workspace.root, preparation.baselineFile)) : baselineBytes
  const baseline = bytesOfBaseline === undefined ? undefined : parseBaseline(workspace.root, preparation.baselineFile, bytesOfBaseline.toString('utf8'))
  const grouped = baseline === undefined ? undefined : baselineView(baseline)
  const fileWaivers = waiversBytes === undefined ? [] : parseFileWaivers(preparation.waiversFile, waiversBytes.toString('utf8'))
  return {
    settlement: settlementOf(preparation, fileWaivers, grouped?.view),
    fileWaivers,
    grouped,
    baselineVersion: baseline?.version ?? 2,
    storable: !readNow || baselineMatches(header, bytesOfBaseline),
  }
}

/** Store a whole evaluation: the baseline's table (by its hash) and the result; nothing when the baseline changed while it was read. */
export function storeWholeEvaluation(
  directory: string,
  kind: ResultKind,
  header: StoredResultHeader,
  evaluated: { records: Buffer | readonly Buffer[]; aggregates: Aggregates; listings: Map<string, FileListing> },
  { fileWaivers, grouped, baselineVersion, storable }: WholeSettlement,
): void {
  if (!storable) return
  if (grouped !== undefined) writeBaselineTable(directory, header.baselineHash, encodeBaselineTable(grouped.byFile))
  writeStoredResult(directory, kind, header, { ...evaluated, fileWaivers, baselineTotal: grouped?.total ?? 0, baselineVersion })
}

/**
 * How findings of changed files are settled against a stored result: its
 * waivers and the baseline's table. Undefined when a baseline applies and its
 * table is missing: then the result cannot be used.
 */
function storedSettlement(
  preparation: CheckPreparation,
  directory: string,
  header: StoredResultHeader,
  result: StoredResult,
): { settlement: Settlement; table: BaselineTable | undefined } | undefined {
  const usesBaseline = header.baselineHash !== 'none' && header.baselineHash !== 'unused'
  const table = usesBaseline ? readBaselineTable(directory, header.baselineHash) : undefined
  if (usesBaseline && table === undefined) return undefined
  const settlement = settlementOf(
    preparation,
    result.fileWaivers,
    table === undefined ? undefined : { version: result.baselineVersion, entriesOf: (file) => table.entriesOf(file) },
  )
  return { settlement, table }
}

/** A stored result of this run's key, and how the files that changed since are settled against it. */
export interface StoredEvaluation {
  directory: string
  header: StoredResultHeader
  /** The header it was stored under: its baseline signature may differ from this run's. */
  storedHeader: StoredResultHeader
  result: StoredResult
  settlement: Settlement
  table: BaselineTable | undefined
}

/** What a check of one snapshot (the index, the working tree) does with a stored result, and without one. */
export interface SnapshotCheck {
  /** The report from a stored result and what changed since; undefined when too much changed or the result does not decode. */
  changes(stored: StoredEvaluation): Promise<CheckReport | undefined>
  /**
   * Evaluate every file, and store the result when there is a cache folder.
   * `first`: no result of this snapshot was stored before, of any key.
   */
  everything(header: StoredResultHeader, whole: WholeSettlement, first: boolean): Promise<CheckReport>
}

/**
 * Check a snapshot from the stored result of the same key when there is a
 * usable one (ADR 0021, ADR 0023), else by evaluating every file.
 */
export async function checkSnapshot(
  preparation: CheckPreparation,
  kind: ResultKind,
  snapshot: string,
  directory: string | undefined,
  check: SnapshotCheck,
): Promise<CheckReport> {
  const stored = directory === undefined ? undefined : readStoredResult(directory, kind)
  const { header, waiversBytes, baselineBytes } = resultHeader(preparation, snapshot, stored?.header)
  if (directory !== undefined && stored !== undefined && stored.header.key === header.key) {
    const result = stored.result()
    const settled = result === undefined ? undefined : storedSettlement(preparation, directory, header, result)
    if (result !== undefined && settled !== undefined) {
      const report = await check.changes({ directory, header, storedHeader: stored.header, result, ...settled })
      if (report !== undefined) return report
    }
  }
  return check.everything(header, wholeSettlement(preparation, header, waiversBytes, baselineBytes), stored === undefined)
}
