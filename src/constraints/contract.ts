import { z } from 'zod'
import { constraintOperators, constraintTargets, severities } from '../knowledge/model.js'
import { describeOverrun } from './scan/scan-budget.js'
import { waiverProblemKinds, waiverSources, type Finding } from './model.js'
import type { CheckReport } from './pipeline/report.js'

const severitySchema = z.enum(severities)

/** A waiver that does not apply (expired, unknown constraint, no reason, matched nothing), as reported. */
const waiverProblemSchema = z.strictObject({
  kind: z.enum(waiverProblemKinds),
  constraintId: z.string(),
  file: z.string(),
  line: z.number().int(),
  message: z.string(),
})

const violationRecordSchema = z.strictObject({
  knowledgeItemId: z.string(),
  knowledgeItemTitle: z.string(),
  knowledgeItemPath: z.string().describe('Workspace-relative path of the knowledge file stating the constraint'),
  constraintId: z.string(),
  constraint: z.strictObject({ operator: z.enum(constraintOperators), target: z.enum(constraintTargets), pattern: z.string() }),
  severity: severitySchema,
  message: z.string(),
  subject: z.string().describe('What matched or is missing: a dependency, a module, the matched code, a path'),
  location: z.strictObject({
    file: z.string().describe('Workspace-relative path; "." for a repository-wide finding'),
    line: z.number().int(),
    column: z.number().int(),
  }),
})

/** The `knowledge_check` result every caller sees (`--json`, MCP): the seed contract plus locations, waivers and counts. */
export const checkResultSchema = z.strictObject({
  passed: z.boolean().describe('false exactly when a violation at or above failOn remains (exit code 1)'),
  violations: z.array(violationRecordSchema),
  summary: z.strictObject({ info: z.number().int(), warn: z.number().int(), block: z.number().int() }),
  waived: z.array(
    violationRecordSchema.extend({
      waiver: z.strictObject({
        source: z.enum(waiverSources),
        file: z.string(),
        line: z.number().int(),
        reason: z.string(),
        owner: z.string().optional(),
        expires: z.string().optional(),
      }),
    }),
  ),
  waiverProblems: z.array(waiverProblemSchema),
  baseline: z.strictObject({ file: z.string(), hidden: z.number().int().describe('old violations still present'), fixed: z.number().int() }).optional(),
  skipped: z.strictObject({
    binary: z.number().int(),
    tooLarge: z.number().int(),
    symlinks: z.number().int(),
    constraints: z.number().int().describe('repository-wide constraints (must_use import, must_exist file) not judged on a partial input'),
    overBudget: z
      .array(z.strictObject({ constraintId: z.string(), severity: severitySchema, file: z.string(), reason: z.enum(['matches', 'time']) }))
      .describe(`files a constraint was not judged on (${describeOverrun('matches')}, or ${describeOverrun('time')}); never a pass: fails at or above failOn`),
  }),
  checked: z.strictObject({ paths: z.number().int(), files: z.number().int(), constraints: z.number().int() }),
  notEnforced: z
    .strictObject({
      constraints: z.number().int(),
      items: z.array(
        z.strictObject({
          id: z.string(),
          path: z.string().describe('Workspace-relative path of the knowledge file'),
          status: z.string(),
          constraints: z.array(z.string()).describe('The ids of the constraints it states'),
        }),
      ),
    })
    .describe('Constraints of proposed and draft items (of the selected items): stated, not enforced until the item is accepted'),
  knowledgeProblems: z
    .array(z.strictObject({ file: z.string(), line: z.number().int(), code: z.string(), message: z.string() }))
    .optional()
    .describe('Knowledge files that did not load (malformed frontmatter stating no constraints): not checked, and warned about'),
})

export type CheckResult = z.output<typeof checkResultSchema>
export type ViolationRecord = z.output<typeof violationRecordSchema>

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
    notEnforced: report.knowledge.notEnforced,
    ...(report.knowledge.unloaded.length === 0
      ? {}
      : { knowledgeProblems: report.knowledge.unloaded.map(({ file, line, code, message }) => ({ file, line, code, message })) }),
  }
}
