import { visitStagedEntries } from '../../git/git-index.js'
import { evaluateInput, listingsOf, reportFrame } from '../pipeline/evaluate-input.js'
import type { CheckPreparation } from '../pipeline/prepare.js'
import type { CheckReport } from '../pipeline/report.js'
import { diffIndex, encodeRecord, recordPieces } from '../cache/index-records.js'
import { writeStoredResult, type StoredResultHeader } from '../cache/stored-result.js'
import { collectStaged, readStagedIndex, stagedEntryKind, stagedInput, type StagedIndex } from '../input/collect-staged.js'
import { accumulate, emptyAggregates } from '../pipeline/aggregates.js'
import { assembleReport } from '../pipeline/assemble-report.js'
import type { FileFacts } from '../pipeline/contribution.js'
import { changeLimit } from './result-key.js'
import { checkSnapshot, storeWholeEvaluation, type StoredEvaluation, type WholeSettlement } from './stored-evaluation.js'

const noFacts = (kind: FileFacts['kind']): FileFacts => ({ kind, hidden: 0, required: [], imports: [], fileWaiversUsed: [] })

/**
 * `--staged`: answered from the result of the last staged check and what
 * changed in the index since (ADR 0021). Only changed entries are decoded and
 * only changed files are read and evaluated; repository-wide rules are judged
 * on the stored sums. Without a stored result of the same key (first run,
 * another mk, changed rules, waivers or baseline), or with many changes,
 * every file is evaluated (reusing file scans) and the result stored.
 */
export async function checkStaged(preparation: CheckPreparation, indexFile: string | undefined): Promise<CheckReport> {
  const index = readStagedIndex(preparation.workspace.root, preparation.gitRoot, indexFile)
  const directory = preparation.options.scanCache?.directory
  return checkSnapshot(preparation, 'staged', `index:${index.prefix}`, directory, {
    changes: (stored) => checkChanges(preparation, index, stored),
    everything: (header, whole) => checkEverything(preparation, index, directory, header, whole),
  })
}

async function checkChanges(preparation: CheckPreparation, index: StagedIndex, stored: StoredEvaluation): Promise<CheckReport | undefined> {
  const { directory, header, result, settlement, table } = stored
  let diff
  try {
    diff = diffIndex(index.bytes, result.records, changeLimit)
  } catch {
    // A record that does not decode: the stored result is not trusted.
    return undefined
  }
  if (diff === undefined) return undefined

  const { workspace } = preparation
  const { aggregates, listings } = result
  for (const { gitPath, facts } of diff.removed) {
    accumulate(aggregates, facts, -1)
    if (gitPath.startsWith(index.prefix)) listings.delete(gitPath.slice(index.prefix.length))
  }
  const blobs = new Map<string, string>()
  const factsOf = new Map<string, FileFacts>()
  for (const entry of diff.changed) {
    const staged = stagedEntryKind(entry.gitPath, entry.mode, index.prefix, preparation.ignoreRules)
    if (staged?.kind === 'file') blobs.set(staged.path, entry.oid)
    else factsOf.set(entry.gitPath, noFacts(staged === undefined ? 'skipped' : 'symlink'))
  }
  const input = stagedInput(workspace.root, index, blobs, { paths: [...blobs.keys()].sort(), complete: false, symlinksSkipped: 0 })
  const { contributions } = await evaluateInput(preparation, input, settlement)
  for (const [path, contribution] of contributions) {
    if (contribution.listing !== undefined) listings.set(path, contribution.listing)
    factsOf.set(index.prefix + path, contribution.facts)
  }
  for (const facts of factsOf.values()) accumulate(aggregates, facts, 1)
  const records = recordPieces(diff.pieces, (entry) => factsOf.get(entry.gitPath) ?? noFacts('skipped'))
  if (diff.changed.length > 0 || diff.removed.length > 0 || header.baselineSignature !== stored.storedHeader.baselineSignature)
    writeStoredResult(directory, 'staged', header, { ...result, records, aggregates, listings })
  return assembleReport(
    settlement,
    listings,
    aggregates,
    reportFrame(preparation, { mode: 'staged', complete: true }, table === undefined ? undefined : result.baselineTotal),
  )
}

async function checkEverything(
  preparation: CheckPreparation,
  index: StagedIndex,
  directory: string | undefined,
  header: StoredResultHeader,
  whole: WholeSettlement,
): Promise<CheckReport> {
  const { settlement, fileWaivers, grouped } = whole
  const input = collectStaged(preparation.workspace.root, index, preparation.ignoreRules)
  const { contributions } = await evaluateInput(preparation, input, settlement)
  const aggregates = emptyAggregates(preparation.rules.length, fileWaivers.length)
  const records: Buffer[] = []
  visitStagedEntries(index.bytes, (nameStart, nameEnd, oidStart, mode) => {
    const gitPath = index.bytes.toString('utf8', nameStart, nameEnd)
    const staged = stagedEntryKind(gitPath, mode, index.prefix, preparation.ignoreRules)
    const facts =
      staged === undefined ? noFacts('skipped') : staged.kind === 'symlink' ? noFacts('symlink') : (contributions.get(staged.path)?.facts ?? noFacts('unread'))
    accumulate(aggregates, facts, 1)
    records.push(encodeRecord({ gitPath, oid: index.bytes.toString('hex', oidStart, oidStart + 20), mode }, facts))
  })
  const listings = listingsOf(contributions)
  if (directory !== undefined) storeWholeEvaluation(directory, 'staged', header, { records, aggregates, listings }, whole)
  return assembleReport(settlement, listings, aggregates, reportFrame(preparation, input, grouped?.total))
}
