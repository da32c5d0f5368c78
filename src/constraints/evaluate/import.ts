import { messageNaming, patternText, type EvaluationContext, type TargetEvaluator } from './context.js'
import { noLineHash, workspaceRootFile, type Finding, type Rule } from '../model.js'

function mustNotUse(rule: Rule, context: EvaluationContext): Finding[] {
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

/** must_use is repository-wide: some file in scope must import a matching module. */
function mustUse(rule: Rule, context: EvaluationContext): Finding[] | undefined {
  if (!context.input.complete) return undefined
  if (context.hitsByFile(rule).length > 0) return []
  return [
    {
      rule,
      file: workspaceRootFile,
      line: 1,
      column: 1,
      subject: rule.constraint.pattern,
      message: rule.constraint.message ?? `no file in scope imports a module matching ${patternText(rule)}`,
      lineHash: noLineHash,
    },
  ]
}

export const evaluateImport: TargetEvaluator = (rule, context) => {
  if (rule.regex === undefined) return []
  return rule.constraint.operator === 'must_use' ? mustUse(rule, context) : mustNotUse(rule, context)
}
