import type { Severity } from '../../knowledge/model.js'
import type { CheckReport } from '../pipeline/report.js'
import { workspaceRootFile, type Finding, type ConstraintRule } from '../model.js'
import { describeOverrun } from '../scan/scan-budget.js'
import { constraintLines } from './constraint-line.js'
import { describeNotEnforced } from '../knowledge-notes.js'
import type { Style } from '../../style.js'
import { plural } from '../../text.js'

function severityLabel(severity: Severity, style: Style): string {
  const padded = severity.padEnd(5)
  return severity === 'block' ? style.red(padded) : severity === 'warn' ? style.yellow(padded) : style.dim(padded)
}

/** The two lines of a finding; what they say of its rule is the same for every finding of the rule, and worked out once. */
function findingDescriber(style: Style): (finding: Finding) => string {
  const constraintLine = constraintLines()
  const ruleParts = new Map<ConstraintRule, { label: string; id: string; source: string }>()
  return (finding) => {
    let parts = ruleParts.get(finding.rule)
    if (parts === undefined) {
      const { constraint, item } = finding.rule
      parts = {
        label: severityLabel(constraint.severity, style),
        id: style.dim(`[${constraint.id}]`),
        source: `        ${style.dim(`${item.id}: ${item.title} (${item.path}:${constraintLine(finding.rule)})`)}`,
      }
      ruleParts.set(finding.rule, parts)
    }
    const place = finding.file === workspaceRootFile ? '(workspace)' : `${finding.file}:${finding.line}:${finding.column}`
    return `  ${parts.label} ${place}  ${finding.message}  ${parts.id}\n${parts.source}`
  }
}

function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>()
  for (const finding of findings) {
    const group = groups.get(finding.file)
    if (group === undefined) groups.set(finding.file, [finding])
    else group.push(finding)
  }
  return groups
}

/** Grouped by file, readable without colour; ends with one summary line. */
export function renderText(report: CheckReport, style: Style): string {
  const lines: string[] = []
  const describeFinding = findingDescriber(style)
  for (const [file, findings] of groupByFile(report.findings)) {
    lines.push(style.bold(file === workspaceRootFile ? 'workspace' : file))
    for (const finding of findings) lines.push(describeFinding(finding))
    lines.push('')
  }
  if (report.waiverProblems.length > 0) {
    lines.push(style.bold('waivers'))
    for (const problem of report.waiverProblems) lines.push(`  ${style.yellow(problem.kind)} ${problem.message}`)
    lines.push('')
  }
  if (report.skipped.overBudget.length > 0) {
    lines.push(style.bold('not judged (over the scan budget)'))
    for (const skip of report.skipped.overBudget) {
      lines.push(`  ${severityLabel(skip.severity, style)} ${skip.file}  ${describeOverrun(skip.reason)}  ${style.dim(`[${skip.constraintId}]`)}`)
    }
    lines.push(`  ${style.dim("hint: exclude generated or minified files with check.ignore in .mkrc, or narrow the constraint's paths or pattern")}`)
    lines.push('')
  }
  const { summary } = report
  const total = summary.block + summary.warn + summary.info
  const parts = [
    total === 0 ? 'no violations' : `${plural(total, 'violation')} (${summary.block} block, ${summary.warn} warn, ${summary.info} info)`,
    ...(report.waived.length > 0 ? [`${report.waived.length} waived`] : []),
    ...(report.baseline === undefined
      ? []
      : [`${report.baseline.hidden} baselined remaining${report.baseline.fixed > 0 ? `, ${report.baseline.fixed} fixed (prune with --update-baseline)` : ''}`]),
    `${plural(report.checked.files, 'file')} read of ${report.checked.paths}, ${plural(report.checked.constraints, 'constraint')}`,
    ...(report.skipped.binary + report.skipped.tooLarge + report.skipped.symlinks > 0
      ? [`skipped ${report.skipped.binary} binary, ${report.skipped.tooLarge} over 1 MB, ${report.skipped.symlinks} symlinks`]
      : []),
    ...(report.skipped.constraints > 0 ? [`${plural(report.skipped.constraints, 'repository-wide constraint')} not judged on a partial input`] : []),
    ...[describeNotEnforced(report.knowledge.notEnforced)].filter((part) => part !== undefined),
  ]
  const verdict = report.passed ? style.green('✔ passed') : style.red(`✖ failed (fail-on ${report.failOn})`)
  lines.push(`${verdict}: ${parts.join('; ')}`)
  return lines.join('\n')
}
