import { patternText, type TargetEvaluator } from './context.js'
import { noLineHash, workspaceRootFile, type Finding } from '../model.js'

/** `file` constraints look at paths only: the pattern is a glob, matched like `paths`. */
export const evaluateFile: TargetEvaluator = (rule, context) => {
  const { pattern } = rule.constraint
  const matching = context.input.paths.filter((path) => context.inScope(rule, path) && context.globs.matches(pattern, path))
  if (rule.constraint.operator === 'must_not_exist') {
    return matching.map((path): Finding => ({
      rule,
      file: path,
      line: 1,
      column: 1,
      subject: path,
      message: rule.constraint.message ?? `${path} matches the forbidden glob ${patternText(rule)}`,
      lineHash: noLineHash,
    }))
  }
  if (!context.input.complete) return undefined
  if (matching.length > 0) return []
  return [
    {
      rule,
      file: workspaceRootFile,
      line: 1,
      column: 1,
      subject: pattern,
      message: rule.constraint.message ?? `no file matches the required glob ${patternText(rule)}`,
      lineHash: noLineHash,
    },
  ]
}
