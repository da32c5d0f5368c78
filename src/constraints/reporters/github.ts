import type { Severity } from '../../knowledge/model.js'
import type { CheckReport } from '../pipeline/report.js'
import { workspaceRootFile } from '../model.js'
import { describeOverrun } from '../scan/scan-budget.js'
import { describeNotEnforced, describeUnloaded } from '../knowledge-notes.js'

const commandBySeverity: Readonly<Record<Severity, string>> = { block: 'error', warn: 'warning', info: 'notice' }

/** GitHub's workflow-command escaping: data escapes %, CR, LF; property values also `:` and `,`. */
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C')
}

/** `::error file=F,line=L,col=C,title=T::message` lines that annotate a pull request. */
export function renderGithub(report: CheckReport): string {
  const lines = report.findings.map((finding) => {
    const { constraint, item } = finding.rule
    const properties = [
      ...(finding.file === workspaceRootFile ? [] : [`file=${escapeProperty(finding.file)}`, `line=${finding.line}`, `col=${finding.column}`]),
      `title=${escapeProperty(`${constraint.id} (${item.id})`)}`,
    ]
    return `::${commandBySeverity[constraint.severity]} ${properties.join(',')}::${escapeData(`${finding.message} — ${item.title} (${item.path})`)}`
  })
  for (const problem of report.waiverProblems) {
    lines.push(
      `::warning file=${escapeProperty(problem.file)},line=${problem.line},title=${escapeProperty(`waiver ${problem.kind}`)}::${escapeData(problem.message)}`,
    )
  }
  for (const skip of report.skipped.overBudget) {
    const title = escapeProperty(`${skip.constraintId} not judged`)
    lines.push(
      `::${commandBySeverity[skip.severity]} file=${escapeProperty(skip.file)},title=${title}::${escapeData(`${skip.file} was not judged: ${describeOverrun(skip.reason)}`)}`,
    )
  }
  for (const problem of report.knowledge.unloaded) {
    lines.push(`::warning file=${escapeProperty(problem.file)},line=${problem.line},title=knowledge file not loaded::${escapeData(describeUnloaded(problem))}`)
  }
  const { summary } = report
  const notEnforced = describeNotEnforced(report.knowledge.notEnforced)
  lines.push(
    `mk knowledge check: ${report.passed ? 'passed' : 'failed'} (${summary.block} block, ${summary.warn} warn, ${summary.info} info, ${report.waived.length} waived${notEnforced === undefined ? '' : `; ${notEnforced}`})`,
  )
  return lines.join('\n')
}
