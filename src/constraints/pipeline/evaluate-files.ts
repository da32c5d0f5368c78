import type { EvaluationContext } from '../evaluate/context.js'
import { matchesFileRule } from '../evaluate/file.js'
import { evaluators, isRepositoryWide } from '../evaluate/index.js'
import type { Finding } from '../model.js'
import type { FileContribution, FileFacts, FileListing, StoredFinding } from './contribution.js'
import { isEmptyListing } from './contribution.js'
import { settleFile, type Settlement } from './settle-file.js'

/** Of a file that was not scanned: why (binary, over the size limit), or that no rule reads it. */
export type Unscanned = 'binary' | 'too-large'

/** Shared by the facts of every file that has none of a kind; never written to. */
const none: number[] = []
const emptySettlement: Omit<FileListing, 'overBudget'> = { kept: [], waived: [], invalidWaivers: [], refusals: [], unmatchedWaivers: [] }

function stored(finding: Finding, rule: number, seq: number): StoredFinding {
  const { file, line, column, subject, message, lineHash } = finding
  return { rule, seq, file, line, column, subject, message, lineHash }
}

/**
 * Written out, not spread: a spread with a property added after it gave each
 * listing a hidden class of its own (some 250 bytes more per listing, kept
 * until the report: 12 MB at 50,000 files).
 */
function listingOf(settled: Omit<FileListing, 'overBudget'>, overBudget: FileListing['overBudget']): FileListing {
  const { kept, waived, invalidWaivers, refusals, unmatchedWaivers } = settled
  return { kept, waived, invalidWaivers, refusals, unmatchedWaivers, overBudget }
}

/**
 * Each file's contribution to a report, for the files of the context's input
 * (a whole snapshot, or only the files that changed since a cached one): its
 * findings of per-file rules after its waivers and its baseline entries, and
 * the facts repository-wide rules and counts are judged on. Findings a rule
 * places in a file outside the input (a proposed dependency in package.json)
 * give that file a contribution too.
 */
export function contributionsOf(context: EvaluationContext, settlement: Settlement, unscanned: ReadonlyMap<string, Unscanned>): Map<string, FileContribution> {
  const { rules } = settlement
  const findingsOf = new Map<string, StoredFinding[]>()
  const overBudgetOf = new Map<string, FileListing['overBudget']>()
  rules.forEach((rule, ruleIndex) => {
    if (!isRepositoryWide(rule)) {
      for (const finding of evaluators[rule.constraint.target](rule, context)) {
        let list = findingsOf.get(finding.file)
        if (list === undefined) findingsOf.set(finding.file, (list = []))
        list.push(stored(finding, ruleIndex, list.length))
      }
    }
    const { operator } = rule.constraint
    for (const { file, overrun } of context.overruns(rule)) {
      // Too many matches of a required pattern is a pass; anything else left the file unjudged.
      if (operator === 'must_match' && overrun === 'matches') continue
      let list = overBudgetOf.get(file)
      if (list === undefined) overBudgetOf.set(file, (list = []))
      list.push({ rule: ruleIndex, reason: overrun })
    }
  })
  const required = rules.flatMap((rule, index) => (rule.constraint.target === 'file' && isRepositoryWide(rule) ? [{ rule, index }] : []))
  const imported = rules.flatMap((rule, index) => {
    const pattern = context.patternOf(rule)
    return rule.constraint.target === 'import' && isRepositoryWide(rule) && pattern !== undefined ? [{ pattern, index }] : []
  })

  const contributions = new Map<string, FileContribution>()
  const contribute = (file: string, inInput: boolean): void => {
    const scan = context.scans.get(file)
    const findings = findingsOf.get(file)
    const overBudget = overBudgetOf.get(file)
    // Most files of a large repository have nothing to settle: no allocation for them.
    const settled =
      findings === undefined && (scan === undefined || scan.waivers.length === 0)
        ? undefined
        : settleFile(file, findings ?? [], scan?.waivers ?? [], settlement)
    let satisfied = none
    for (const { rule, index } of required) if (matchesFileRule(rule, file, context.globs)) satisfied = satisfied === none ? [index] : [...satisfied, index]
    let imports = none
    if (scan !== undefined) for (const { pattern, index } of imported) if (scan.hits.has(pattern)) imports = imports === none ? [index] : [...imports, index]
    const facts: FileFacts = {
      kind: !inInput ? 'skipped' : scan !== undefined ? 'scanned' : (unscanned.get(file) ?? 'unread'),
      hidden: settled?.hidden ?? 0,
      required: satisfied,
      imports,
      fileWaiversUsed: settled === undefined || settled.fileWaiversUsed.length === 0 ? none : settled.fileWaiversUsed,
    }
    const listing = settled === undefined && overBudget === undefined ? undefined : listingOf(settled?.listing ?? emptySettlement, overBudget ?? [])
    contributions.set(file, { facts, listing: listing === undefined || isEmptyListing(listing) ? undefined : listing })
  }
  for (const file of context.input.paths) contribute(file, true)
  // Every path of the input has its contribution now: the files left are outside it.
  for (const file of [...findingsOf.keys(), ...overBudgetOf.keys()]) if (!contributions.has(file)) contribute(file, false)
  return contributions
}
