import { join } from 'node:path'
import { visitStagedEntries } from '../../git/git-index.js'
import { baselineView, evaluateInput, listingsOf, reportFrame, settlementOf, type CheckPreparation, type CheckReport } from '../check.js'
import { encodeBaselineTable } from '../cache/baseline-table.js'
import { diffIndex, encodeRecord, recordPieces } from '../cache/index-records.js'
import {
  readBaselineTable,
  readStoredResult,
  writeBaselineTable,
  writeStoredResult,
  type StoredResultHeader,
  type StoredResult,
} from '../cache/stored-result.js'
import { collectStaged, readStagedIndex, stagedEntryKind, stagedInput, type StagedIndex } from '../input/collect-staged.js'
import { parseBaseline } from '../waivers/baseline.js'
import { parseFileWaivers } from '../waivers/waivers.js'
import { accumulate, emptyAggregates } from './aggregates.js'
import { assembleReport } from './assemble-report.js'
import type { FileFacts } from './contribution.js'
import { changeLimit, readIfExists, resultHeader } from './result-key.js'

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
  const { workspace, options } = preparation
  const index = readStagedIndex(workspace.root, preparation.gitRoot, indexFile)
  const directory = options.scanCache?.directory
  const stored = directory === undefined ? undefined : readStoredResult(directory, 'staged')
  const { header, waiversBytes, baselineBytes } = resultHeader(preparation, `index:${index.prefix}`, stored?.header)
  if (directory !== undefined && stored !== undefined && stored.header.key === header.key) {
    const report = await checkChanges(preparation, index, directory, header, stored)
    if (report !== undefined) return report
  }
  return checkEverything(preparation, index, directory, header, waiversBytes, baselineBytes)
}

async function checkChanges(
  preparation: CheckPreparation,
  index: StagedIndex,
  directory: string,
  header: StoredResultHeader,
  stored: { header: StoredResultHeader; result: () => StoredResult | undefined },
): Promise<CheckReport | undefined> {
  const table = header.baselineHash === 'none' || header.baselineHash === 'unused' ? undefined : readBaselineTable(directory, header.baselineHash)
  if (table === undefined && header.baselineHash !== 'none' && header.baselineHash !== 'unused') return undefined
  const result = stored.result()
  if (result === undefined) return undefined
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
  const settlement = settlementOf(
    preparation,
    result.fileWaivers,
    table === undefined ? undefined : { version: result.baselineVersion, entriesOf: (file) => table.entriesOf(file) },
  )
  const input = stagedInput(workspace.root, index, blobs, { paths: [...blobs.keys()].sort(), complete: false, symlinksSkipped: 0 })
  const { contributions } = await evaluateInput(preparation, input, settlement)
  for (const [path, contribution] of contributions) {
    if (contribution.listing !== undefined) listings.set(path, contribution.listing)
    factsOf.set(index.prefix + path, contribution.facts)
  }
  for (const facts of factsOf.values()) accumulate(aggregates, facts, 1)
  const records = recordPieces(diff.pieces, (entry) => factsOf.get(entry.gitPath) ?? noFacts('skipped'))
  if (diff.changed.length > 0 || diff.removed.length > 0 || header.baselineSignature !== stored.header.baselineSignature)
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
  waiversBytes: Buffer | undefined,
  baselineBytes: Buffer | undefined,
): Promise<CheckReport> {
  const { workspace, options } = preparation
  const root = workspace.root
  const bytesOfBaseline = baselineBytes ?? (options.useBaseline ? readIfExists(join(root, preparation.baselineFile)) : undefined)
  const baseline = bytesOfBaseline === undefined ? undefined : parseBaseline(root, preparation.baselineFile, bytesOfBaseline.toString('utf8'))
  const grouped = baseline === undefined ? undefined : baselineView(baseline)
  const fileWaivers = waiversBytes === undefined ? [] : parseFileWaivers(preparation.waiversFile, waiversBytes.toString('utf8'))
  const settlement = settlementOf(preparation, fileWaivers, grouped?.view)
  const input = collectStaged(root, index, preparation.ignoreRules)
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
  if (directory !== undefined) {
    if (grouped !== undefined) writeBaselineTable(directory, header.baselineHash, encodeBaselineTable(grouped.byFile))
    writeStoredResult(directory, 'staged', header, {
      records,
      aggregates,
      listings,
      fileWaivers,
      baselineTotal: grouped?.total ?? 0,
      baselineVersion: baseline?.version ?? 2,
    })
  }
  return assembleReport(settlement, listings, aggregates, reportFrame(preparation, input, grouped?.total))
}
