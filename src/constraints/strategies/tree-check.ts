import { evaluateInput, listingsOf, reportFrame } from '../pipeline/evaluate-input.js'
import type { CheckPreparation } from '../pipeline/prepare.js'
import type { CheckReport } from '../pipeline/report.js'
import { markSnapshotSeen, snapshotSeen, writeStoredResult, type StoredResultHeader } from '../cache/stored-result.js'
import { decodeTreeRecords, encodeTreeRecords, pathOnly, type TreeRecords } from '../cache/tree-records.js'
import type { CheckInput } from '../input/input.js'
import { accumulate, aggregatesOf, type Aggregates } from '../pipeline/aggregates.js'
import { assembleReport } from '../pipeline/assemble-report.js'
import { decodeFacts, encodeFacts, type FileContribution, type FileListing } from '../pipeline/contribution.js'
import { changeLimit } from './result-key.js'
import { checkSnapshot, storeWholeEvaluation, type StoredEvaluation, type WholeSettlement } from './stored-evaluation.js'

/**
 * A file's record: its facts, and its identity: '' when its facts depend on
 * its path alone; null, so that the next check evaluates it again, when its
 * stat data was not trusted or a rule ran out of time on it (a quieter
 * machine might finish, as the scan cache also assumes).
 */
export function recordOf(contribution: FileContribution, identity: string | undefined): { identity: string | null; facts: string } {
  const timedOut = contribution.listing?.overBudget.some(({ reason }) => reason === 'time') ?? false
  return {
    identity: contribution.facts.kind === 'unread' ? pathOnly : timedOut ? null : (identity ?? null),
    facts: encodeFacts(contribution.facts),
  }
}

/**
 * The working tree: answered from the result of the last working-tree check
 * and the files whose stat data changed since (ADR 0023), as the staged hook
 * is from the index (ADR 0021). Unchanged files are stat'ed, not read or
 * evaluated; files no rule reads are not even stat'ed. Without a stored result
 * of the same key, or with many changes, every file is evaluated (reusing
 * file scans kept since the second such evaluation) and the result stored;
 * the very first check here stores only a mark that it ran.
 */
export async function checkTree(preparation: CheckPreparation, input: CheckInput, directory: string): Promise<CheckReport> {
  return checkSnapshot(preparation, 'tree', 'tree', directory, {
    changes: (stored) => checkChanges(preparation, input, stored),
    everything: (header, whole, first) => checkEverything(preparation, input, directory, header, whole, first),
  })
}

async function checkChanges(preparation: CheckPreparation, input: CheckInput, stored: StoredEvaluation): Promise<CheckReport | undefined> {
  const { directory, header, result, settlement, table } = stored
  const records = decodeTreeRecords(result.records)
  if (records === undefined) return undefined

  // Walk the tree's sorted paths against the records' (the same order): a path is unchanged when its record's identity is its stat signature now.
  const { aggregates, listings } = result
  const next: TreeRecords = { paths: input.paths, identities: [], facts: [] }
  const changed: string[] = []
  /** Where each changed path's record goes among the next records. */
  const changedAt: number[] = []
  const identities = new Map<string, string>()
  const takeBack = (at: number): void => {
    accumulate(aggregates, decodeFacts(records.facts[at] as string), -1)
    listings.delete(records.paths[at] as string)
  }
  let at = 0
  try {
    for (const path of input.paths) {
      for (; at < records.paths.length && (records.paths[at] as string) < path; at++) takeBack(at)
      const known = at < records.paths.length && records.paths[at] === path
      const storedIdentity = known ? records.identities[at] : null
      if (storedIdentity === pathOnly) {
        next.identities.push(pathOnly)
        next.facts.push(records.facts[at] as string)
      } else {
        const identity = input.identity?.(path)
        if (identity !== undefined && identity === storedIdentity) {
          next.identities.push(identity)
          next.facts.push(records.facts[at] as string)
        } else {
          if (known) takeBack(at)
          if (identity !== undefined) identities.set(path, identity)
          changed.push(path)
          if (changed.length > changeLimit) return undefined
          changedAt.push(next.facts.length)
          next.identities.push(null)
          next.facts.push('')
        }
      }
      if (known) at++
    }
    for (; at < records.paths.length; at++) takeBack(at)
  } catch {
    // Facts that do not decode: the stored result is not trusted.
    return undefined
  }

  const { contributions } = await evaluateInput(preparation, { ...input, paths: changed, complete: false }, settlement)
  for (const [path, contribution] of contributions) {
    if (contribution.listing !== undefined) listings.set(path, contribution.listing)
    accumulate(aggregates, contribution.facts, 1)
  }
  // Symbolic links are counted by the walk, not per file.
  aggregates.symlinks = input.symlinksSkipped
  changed.forEach((path, index) => {
    // Every path of an input has a contribution (contributionsOf).
    const record = recordOf(contributions.get(path) as FileContribution, identities.get(path))
    const position = changedAt[index] as number
    next.identities[position] = record.identity
    next.facts[position] = record.facts
  })
  if (changed.length > 0 || records.paths.length !== next.paths.length || header.baselineSignature !== stored.storedHeader.baselineSignature)
    writeStoredResult(directory, 'tree', header, { ...result, records: encodeTreeRecords(next), aggregates, listings })
  return assembleReport(settlement, listings, aggregates, reportFrame(preparation, input, table === undefined ? undefined : result.baselineTotal))
}

async function checkEverything(
  preparation: CheckPreparation,
  input: CheckInput,
  directory: string,
  header: StoredResultHeader,
  whole: WholeSettlement,
  first: boolean,
): Promise<CheckReport> {
  const { settlement, grouped } = whole
  if (first && !snapshotSeen(directory, 'tree')) {
    // The tree's first check here stores no result, only that it ran (ADR 0023): most of the cost of a result is paid to write it, and a first check may be the only one.
    const { aggregates, listings } = await evaluateUnstored(preparation, input, whole)
    markSnapshotSeen(directory, 'tree')
    return assembleReport(settlement, listings, aggregates, reportFrame(preparation, input, grouped?.total))
  }
  const { records, aggregates, listings } = await evaluateEverything(preparation, input, whole, first)
  storeWholeEvaluation(directory, 'tree', header, { records, aggregates, listings }, whole)
  return assembleReport(settlement, listings, aggregates, reportFrame(preparation, input, grouped?.total))
}

/** Every file's contribution folded into what is reported, with no scans kept, no identities taken and no records made. */
async function evaluateUnstored(
  preparation: CheckPreparation,
  input: CheckInput,
  { settlement, fileWaivers }: WholeSettlement,
): Promise<{ aggregates: Aggregates; listings: Map<string, FileListing> }> {
  const { contributions } = await evaluateInput(preparation, input, settlement, 'nothing')
  const aggregates = aggregatesOf(preparation.rules.length, fileWaivers.length, contributions.values(), input.symlinksSkipped)
  return { aggregates, listings: listingsOf(contributions) }
}

/**
 * Every file's contribution, folded into what is stored and reported. A
 * function of its own so that the contributions, and the records before they
 * are encoded, are garbage once it returns: the cache is written and the
 * report assembled without them alive.
 */
async function evaluateEverything(
  preparation: CheckPreparation,
  input: CheckInput,
  { settlement, fileWaivers }: WholeSettlement,
  first: boolean,
): Promise<{ records: Buffer; aggregates: Aggregates; listings: Map<string, FileListing> }> {
  // Scans are kept from the second whole evaluation on: the rules or waivers changed, or many files did, and may again.
  const { contributions, identities } = await evaluateInput(preparation, input, settlement, first ? 'identities' : 'scans')
  const aggregates = aggregatesOf(preparation.rules.length, fileWaivers.length, contributions.values(), input.symlinksSkipped)
  const records: TreeRecords = { paths: input.paths, identities: [], facts: [] }
  for (const path of input.paths) {
    const record = recordOf(contributions.get(path) as FileContribution, identities.get(path))
    records.identities.push(record.identity)
    records.facts.push(record.facts)
  }
  return { records: encodeTreeRecords(records), aggregates, listings: listingsOf(contributions) }
}
