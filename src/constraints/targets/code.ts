import { patternText, type EvaluationContext, type TargetEvaluator } from '../context.js'
import type { Finding, Rule } from '../model.js'

const maxSubjectLength = 80

function mustNotMatch(rule: Rule, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const { scan, matches } of context.codeScans(rule)) {
    for (const { line, column, lineText } of matches) {
      findings.push({
        rule,
        file: scan.path,
        line,
        column,
        subject: lineText.slice(column - 1, column - 1 + maxSubjectLength).trim(),
        message: rule.constraint.message ?? `code matches ${patternText(rule)}`,
        lineText,
      })
    }
  }
  return findings
}

/** must_match is judged per file: each file in scope needs a matching line. */
function mustMatch(rule: Rule, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const { scan, matches } of context.codeScans(rule)) {
    if (matches.length > 0) continue
    findings.push({
      rule,
      file: scan.path,
      line: 1,
      column: 1,
      subject: scan.path,
      message: rule.constraint.message ?? `${scan.path} has no line matching ${patternText(rule)}`,
      lineText: '',
    })
  }
  return findings
}

export const evaluateCode: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined) return []
  return rule.constraint.operator === 'must_match' ? mustMatch(rule, context) : mustNotMatch(rule, context)
}
