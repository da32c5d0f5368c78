import type { Severity } from '../../knowledge/model.js'
import type { CheckReport, OverBudget } from './report.js'
import type { WaiverProblem } from '../model.js'
import { missingRequiredFile } from '../evaluate/file.js'
import { missingRequiredImport } from '../evaluate/import.js'
import { isRepositoryWide } from '../evaluate/index.js'
import { atLeast, workspaceRootFile, type Finding, type ConstraintRule, type WaiverRef } from '../model.js'
import { unmatchedProblem, waiverValidity } from '../waivers/waivers.js'
import type { Aggregates } from './aggregates.js'
import type { FileListing, StoredFinding } from './contribution.js'
import { settleFile, type Settlement } from './settle-file.js'

export interface ReportFrame {
  mode: CheckReport['mode']
  complete: boolean
  minSeverity: Severity
  failOn: Severity
  /** The baseline file and the sum of its counts; undefined when no baseline applies. */
  baseline: { file: string; total: number } | undefined
  location: CheckReport['location']
  knowledge: CheckReport['knowledge']
}

/**
 * What String#localeCompare compares by, made once: per call it costs a collator each time, and a large check sorts 100,000 findings.
 * Made at the first sort, not when the module loads: setting up ICU's collator takes 6-20 ms and 3-5 MB, which a check that finds nothing never needs.
 */
let localeCompare: Intl.Collator['compare'] | undefined
const localeOrder = (a: string, b: string): number => (localeCompare ??= new Intl.Collator().compare)(a, b)

/** Code-unit order, the order of a sorted path list: how a whole-tree evaluation met files. */
function pathOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The order a whole-tree evaluation produced findings in: by rule, then file, then place in the file. */
function evaluationOrder(a: StoredFinding, b: StoredFinding): number {
  return a.rule - b.rule || pathOrder(a.file, b.file) || a.seq - b.seq
}

/** The report's order (file, line, column, constraint), ties kept in evaluation order as a stable sort of them would. */
function reportOrder(rules: readonly ConstraintRule[]): (a: StoredFinding, b: StoredFinding) => number {
  const id = (finding: StoredFinding): string => (rules[finding.rule] as ConstraintRule).constraint.id
  return (a, b) => localeOrder(a.file, b.file) || a.line - b.line || a.column - b.column || localeOrder(id(a), id(b)) || evaluationOrder(a, b)
}

/** The findings of repository-wide rules no file satisfies, located at the workspace root. */
function repositoryWideFindings(rules: readonly ConstraintRule[], aggregates: Aggregates): StoredFinding[] {
  const findings: StoredFinding[] = []
  rules.forEach((rule, index) => {
    if (!isRepositoryWide(rule)) return
    const target = rule.constraint.target
    const satisfied = (target === 'file' ? aggregates.required[index] : aggregates.imports[index]) ?? 0
    if (satisfied > 0) return
    const { file, line, column, subject, message, lineHash } = target === 'file' ? missingRequiredFile(rule) : missingRequiredImport(rule)
    findings.push({ rule: index, seq: 0, file, line, column, subject, message, lineHash })
  })
  return findings
}

/**
 * The report of a check from each file's listing and the sums of every file's
 * facts: the same report whether the listings were all evaluated now or most
 * of them came from a cache. Repository-wide rules, the waivers file's
 * problems and the baseline's fixed count are worked out here, from the sums.
 */
export function assembleReport(settlement: Settlement, listings: ReadonlyMap<string, FileListing>, aggregates: Aggregates, frame: ReportFrame): CheckReport {
  const { rules } = settlement
  const byPath = [...listings.entries()].sort(([a], [b]) => pathOrder(a, b))
  let hidden = aggregates.hidden
  const fileWaiverUses = [...aggregates.fileWaiverUses]
  if (frame.complete) {
    const root = settleFile(workspaceRootFile, repositoryWideFindings(rules, aggregates), [], settlement)
    hidden += root.hidden
    for (const index of root.fileWaiversUsed) fileWaiverUses[index] = (fileWaiverUses[index] ?? 0) + 1
    byPath.push([workspaceRootFile, { ...root.listing, overBudget: [] }])
  }

  const toFinding = (stored: StoredFinding): Finding => {
    const { file, line, column, subject, message, lineHash } = stored
    return { rule: rules[stored.rule] as ConstraintRule, file, line, column, subject, message, lineHash }
  }
  const order = reportOrder(rules)
  const kept = byPath
    .flatMap(([, listing]) => listing.kept)
    .filter((finding) => atLeast((rules[finding.rule] as ConstraintRule).constraint.severity, frame.minSeverity))
  kept.sort(order)
  const waived = byPath.flatMap(([, listing]) => listing.waived)
  waived.sort((a, b) => order(a.finding, b.finding))

  const { fileWaivers } = settlement.waivers
  const problems: WaiverProblem[] = byPath.flatMap(([, listing]) => listing.invalidWaivers)
  problems.push(...fileWaivers.flatMap((waiver) => waiverValidity(waiver, settlement.waivers)))
  const refusals = byPath.flatMap(([file, listing]) => listing.refusals.map((refusal) => ({ file, refusal })))
  refusals.sort((a, b) => a.refusal.rule - b.refusal.rule || pathOrder(a.file, b.file) || a.refusal.seq - b.refusal.seq)
  const refusedFileWaivers = new Set<number>()
  for (const { refusal } of refusals) {
    if (refusal.fileWaiver !== undefined) {
      if (refusedFileWaivers.has(refusal.fileWaiver)) continue
      refusedFileWaivers.add(refusal.fileWaiver)
    }
    problems.push(refusal.problem)
  }
  problems.push(...byPath.flatMap(([, listing]) => listing.unmatchedWaivers))
  if (frame.complete) {
    for (const index of settlement.validFileWaivers) {
      if ((fileWaiverUses[index] ?? 0) > 0 || refusedFileWaivers.has(index)) continue
      const unmatched = unmatchedProblem(fileWaivers[index] as (typeof fileWaivers)[number], settlement.waivers)
      if (unmatched !== undefined) problems.push(unmatched)
    }
  }

  const overBudget: OverBudget[] = byPath
    .flatMap(([file, listing]) => listing.overBudget.map(({ rule, reason }) => ({ file, rule, reason })))
    .sort((a, b) => a.rule - b.rule || pathOrder(a.file, b.file))
    .map(({ file, rule, reason }) => {
      const { id, severity } = (rules[rule] as ConstraintRule).constraint
      return { constraintId: id, severity, file, reason }
    })

  const findings = kept.map(toFinding)
  const summary: Record<Severity, number> = { info: 0, warn: 0, block: 0 }
  for (const finding of findings) summary[finding.rule.constraint.severity]++
  return {
    // A file left unjudged is never a pass: it could hide the violation the constraint exists for.
    passed:
      !findings.some((finding) => atLeast(finding.rule.constraint.severity, frame.failOn)) && !overBudget.some((skip) => atLeast(skip.severity, frame.failOn)),
    failOn: frame.failOn,
    findings,
    waived: waived.map(({ finding, waiver }): { finding: Finding; waiver: WaiverRef } => ({ finding: toFinding(finding), waiver })),
    waiverProblems: problems,
    baseline: frame.baseline === undefined ? undefined : { file: frame.baseline.file, hidden, fixed: frame.complete ? frame.baseline.total - hidden : 0 },
    summary,
    skipped: {
      binary: aggregates.binary,
      tooLarge: aggregates.tooLarge,
      symlinks: aggregates.symlinks,
      constraints: frame.complete ? 0 : rules.filter(isRepositoryWide).length,
      overBudget,
    },
    checked: { paths: aggregates.paths, files: aggregates.files, constraints: rules.length },
    rules: [...rules],
    mode: frame.mode,
    location: frame.location,
    knowledge: frame.knowledge,
  }
}
