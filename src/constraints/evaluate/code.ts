import { patternText, type EvaluationContext, type TargetEvaluator } from './context.js'
import { noLineHash, type Finding, type ConstraintRule } from '../model.js'

function mustNotMatch(rule: ConstraintRule, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  const message = rule.constraint.message ?? `code matches ${patternText(rule)}`
  for (const { scan, hits } of context.hitsByFile(rule)) {
    for (const { line, column, lineHash, subject } of hits) {
      findings.push({ rule, file: scan.path, line, column, subject, message, lineHash })
    }
  }
  return findings
}

/** must_match is judged per file: each file in scope needs a matching line. */
function mustMatch(rule: ConstraintRule, context: EvaluationContext): Finding[] {
  return context.filesWithoutHits(rule).map((scan) => ({
    rule,
    file: scan.path,
    line: 1,
    column: 1,
    subject: scan.path,
    message: rule.constraint.message ?? `${scan.path} has no line matching ${patternText(rule)}`,
    lineHash: noLineHash,
  }))
}

export const evaluateCode: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined) return []
  return rule.constraint.operator === 'must_match' ? mustMatch(rule, context) : mustNotMatch(rule, context)
}
