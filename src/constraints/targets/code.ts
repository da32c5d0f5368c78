import { patternText, type EvaluationContext, type TargetEvaluator } from '../context.js'
import type { Finding, Rule } from '../model.js'

const maxSubjectLength = 80

function mustNotMatch(rule: Rule, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const source of context.sourcesInScope(rule)) {
    for (const offset of context.codeMatchOffsets(rule, source)) {
      const { line, column } = source.position(offset)
      const lineText = source.line(line)
      findings.push({
        rule,
        file: source.path,
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
  return context
    .sourcesInScope(rule)
    .filter((source) => context.codeMatchOffsets(rule, source).length === 0)
    .map((source) => ({
      rule,
      file: source.path,
      line: 1,
      column: 1,
      subject: source.path,
      message: rule.constraint.message ?? `${source.path} has no line matching ${patternText(rule)}`,
      lineText: '',
    }))
}

export const evaluateCode: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined) return []
  return rule.constraint.operator === 'must_match' ? mustMatch(rule, context) : mustNotMatch(rule, context)
}
