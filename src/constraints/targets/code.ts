import { patternText, type EvaluationContext, type TargetEvaluator } from '../context.js'
import type { Finding, Rule } from '../model.js'
import type { CompiledPattern } from '../regex.js'
import type { SourceText } from '../source-text.js'

const maxSubjectLength = 80

function mustNotMatch(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] {
  const findings: Finding[] = []
  for (const source of context.sourcesInScope(rule)) {
    // One search over the whole file first: most files do not match at all.
    if (!regex.occursIn(source.text)) continue
    source.lines.forEach((lineText, index) => {
      for (const start of regex.matchColumns(lineText)) {
        findings.push({
          rule,
          file: source.path,
          line: index + 1,
          column: start + 1,
          subject: lineText.slice(start, start + maxSubjectLength).trim(),
          message: rule.constraint.message ?? `code matches ${patternText(rule)}`,
          lineText,
        })
      }
    })
  }
  return findings
}

function hasLineMatch(regex: CompiledPattern, source: SourceText): boolean {
  return regex.occursIn(source.text) && source.lines.some((line) => regex.occursIn(line))
}

/** must_match is judged per file: each file in scope needs a matching line. */
function mustMatch(rule: Rule, regex: CompiledPattern, context: EvaluationContext): Finding[] {
  return context
    .sourcesInScope(rule)
    .filter((source) => !hasLineMatch(regex, source))
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
