import type { Severity } from '../../knowledge/model.js'
import type { KnowledgeNotes } from '../knowledge-notes.js'
import type { CheckInput } from '../input/input.js'
import type { Finding, ConstraintRule, WaiverProblem, WaiverRef } from '../model.js'
import type { BudgetOverrun } from '../scan/scan-budget.js'

/** A file a constraint was not judged on because it exceeded its scan budget (scan-budget.ts). */
export interface OverBudget {
  constraintId: string
  severity: Severity
  file: string
  reason: BudgetOverrun
}

export interface CheckReport {
  passed: boolean
  failOn: Severity
  /** Reported violations, ordered by file, line and column. */
  findings: Finding[]
  waived: { finding: Finding; waiver: WaiverRef }[]
  waiverProblems: WaiverProblem[]
  baseline: { file: string; hidden: number; fixed: number } | undefined
  summary: Record<Severity, number>
  skipped: { binary: number; tooLarge: number; symlinks: number; constraints: number; overBudget: OverBudget[] }
  checked: { paths: number; files: number; constraints: number }
  /** Every evaluated constraint, for reporters that describe rules (SARIF). */
  rules: ConstraintRule[]
  mode: CheckInput['mode']
  /** Absolute folders, for reporters that locate files from the repository root (SARIF). */
  location: { repositoryRoot: string; workspaceRoot: string; configFile: string | undefined }
  /** Constraints of items not accepted yet, and knowledge files that did not load. */
  knowledge: KnowledgeNotes
}
