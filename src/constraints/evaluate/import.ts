import { messageNaming, patternText, unsatisfiedEverywhere, type TargetEvaluator } from './context.js'
import type { Finding, ConstraintRule } from '../model.js'

/** must_not_use, per file; must_use is repository-wide, judged from every file's facts (pipeline/assemble-report.ts). */
export const evaluateImport: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined || rule.constraint.operator === 'must_use') return []
  const findings: Finding[] = []
  for (const { scan, hits } of context.hitsByFile(rule)) {
    for (const { line, column, lineHash, subject } of hits) {
      findings.push({
        rule,
        file: scan.path,
        line,
        column,
        subject,
        message: messageNaming(rule, `import ${subject}`, `import of ${subject} is not allowed (matches ${patternText(rule)})`),
        lineHash,
      })
    }
  }
  return findings
}

/** The violation of a must_use import constraint no file in scope satisfies. */
export function missingRequiredImport(rule: ConstraintRule): Finding {
  return unsatisfiedEverywhere(rule, `no file in scope imports a module matching ${patternText(rule)}`)
}
