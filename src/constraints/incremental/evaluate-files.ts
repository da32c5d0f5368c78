import type { EvaluationContext } from '../evaluate/context.js'
import { matchesFileRule } from '../evaluate/file.js'
import { evaluators, isRepositoryWide } from '../evaluate/index.js'
import type { Finding } from '../model.js'
import type { FileContribution, FileFacts, FileListing, StoredFinding } from './contribution.js'
import { isEmptyListing } from './contribution.js'
import { settleFile, type Settlement } from './settle-file.js'

/** Of a file that was not scanned: why (binary, over the size limit), or that no rule reads it. */
export type Unscanned = 'binary' | 'too-large'

function stored(finding: Finding, rule: number, seq: number): StoredFinding {
  const { file, line, column, subject, message, lineHash } = finding
  return { rule, seq, file, line, column, subject, message, lineHash }
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
  const inInput = new Set(context.input.paths)
  const files = new Set([...inInput, ...findingsOf.keys(), ...overBudgetOf.keys()])
  for (const file of files) {
    const scan = context.scans.get(file)
    const settled = settleFile(file, findingsOf.get(file) ?? [], scan?.waivers ?? [], settlement)
    const facts: FileFacts = {
      kind: !inInput.has(file) ? 'skipped' : scan !== undefined ? 'scanned' : (unscanned.get(file) ?? 'unread'),
      hidden: settled.hidden,
      required: required.filter(({ rule }) => matchesFileRule(rule, file, context.globs)).map(({ index }) => index),
      imports: scan === undefined ? [] : imported.filter(({ pattern }) => scan.hits.has(pattern)).map(({ index }) => index),
      fileWaiversUsed: settled.fileWaiversUsed,
    }
    const listing: FileListing = { ...settled.listing, overBudget: overBudgetOf.get(file) ?? [] }
    contributions.set(file, { facts, listing: isEmptyListing(listing) ? undefined : listing })
  }
  return contributions
}
