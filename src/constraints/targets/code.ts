import { patternText, type EvaluationContext, type TargetEvaluator } from '../context.js'
import type { Finding, Rule } from '../model.js'
import type { CompiledPattern } from '../regex.js'
import type { SourceText } from '../source-text.js'

const maxSubjectLength = 80

function mustNotMatch(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const source of context.sourcesInScope(rule)) {
    // One search over the whole file first: most files do not match at all.
    if (!context.codeOccurs(rule, source)) continue
    for (const offset of regex.lineMatchOffsets(source.text)) {
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

function hasLineMatch(rule: Rule, regex: CompiledPattern, source: SourceText, context: EvaluationContext): boolean {
  return context.codeOccurs(rule, source) && regex.lineMatchOffsets(source.text).length > 0
}

/** must_match is judged per file: each file in scope needs a matching line. */
function mustMatch(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] {
  return context
    .sourcesInScope(rule)
    .filter((source) => !hasLineMatch(rule, regex, source, context))
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
  return rule.constraint.operator === 'must_match' ? mustMatch(rule, rule.regex, context) : mustNotMatch(rule, rule.regex, context)
}
