import { messageNaming, patternText, unsatisfiedEverywhere, type TargetEvaluator } from './context.js'
import type { Finding, ConstraintRule } from '../model.js'

/** must_not_use, per file; must_use is repository-wide, judged from every file's facts (pipeline/assemble-report.ts). */
export const evaluateImport: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined || rule.constraint.operator === 'must_use') return []
  const findings: Finding[] = []
  // Modules repeat across files: one message per module, shared by its findings, not a string built per finding and kept to the report.
  const messages = new Map<string, string>()
  const messageOf = (subject: string): string => {
    let message = messages.get(subject)
    if (message === undefined) {
      message = messageNaming(rule, `import ${subject}`, `import of ${subject} is not allowed (matches ${patternText(rule)})`)
      messages.set(subject, message)
    }
    return message
  }
  for (const { scan, hits } of context.hitsByFile(rule)) {
    for (const { line, column, lineHash, subject } of hits) {
      findings.push({ rule, file: scan.path, line, column, subject, message: messageOf(subject), lineHash })
    }
  }
  return findings
}

/** The violation of a must_use import constraint no file in scope satisfies. */
export function missingRequiredImport(rule: ConstraintRule): Finding {
  return unsatisfiedEverywhere(rule, `no file in scope imports a module matching ${patternText(rule)}`)
}
