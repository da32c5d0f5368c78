import type { ConstraintOperator, ConstraintTarget, Severity } from '../knowledge/model.js'
import type { CheckReport } from './check.js'
import type { Finding, WaiverProblem, WaiverSource } from './model.js'

/** The `knowledge_check` result every caller sees (`--json`, MCP): the seed contract plus locations, waivers and counts. */
export interface ViolationRecord {
  knowledgeItemId: string
  knowledgeItemTitle: string
  knowledgeItemPath: string
  constraintId: string
  constraint: { operator: ConstraintOperator; target: ConstraintTarget; pattern: string }
  severity: Severity
  message: string
  subject: string
  location: { file: string; line: number; column: number }
}

export interface WaivedRecord extends ViolationRecord {
  waiver: { source: WaiverSource; file: string; line: number; reason: string; owner?: string; expires?: string }
}

export interface CheckResult {
  passed: boolean
  violations: ViolationRecord[]
  summary: Record<Severity, number>
  waived: WaivedRecord[]
  waiverProblems: WaiverProblem[]
  baseline?: { file: string; hidden: number; fixed: number }
  skipped: { binary: number; tooLarge: number; symlinks: number; constraints: number }
  checked: { paths: number; files: number; constraints: number }
}

export function toViolationRecord(finding: Finding): ViolationRecord {
  const { constraint, item } = finding.rule
  return {
    knowledgeItemId: item.id,
    knowledgeItemTitle: item.title,
    knowledgeItemPath: item.path,
    constraintId: constraint.id,
    constraint: { operator: constraint.operator, target: constraint.target, pattern: constraint.pattern },
    severity: constraint.severity,
    message: finding.message,
    subject: finding.subject,
    location: { file: finding.file, line: finding.line, column: finding.column },
  }
}

export function toCheckResult(report: CheckReport): CheckResult {
  return {
    passed: report.passed,
    violations: report.findings.map(toViolationRecord),
    summary: report.summary,
    waived: report.waived.map(({ finding, waiver }) => ({
      ...toViolationRecord(finding),
      waiver: {
        source: waiver.source,
        file: waiver.file,
        line: waiver.line,
        reason: waiver.reason,
        ...(waiver.owner === undefined ? {} : { owner: waiver.owner }),
        ...(waiver.expires === undefined ? {} : { expires: waiver.expires }),
      },
    })),
    waiverProblems: report.waiverProblems,
    ...(report.baseline === undefined ? {} : { baseline: report.baseline }),
    skipped: report.skipped,
    checked: report.checked,
  }
}
