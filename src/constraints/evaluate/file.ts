import { patternText, unsatisfiedEverywhere, type TargetEvaluator } from './context.js'
import { noLineHash, type Finding, type ConstraintRule } from '../model.js'
import { inScope, type GlobMatcher } from '../scope.js'

/** `file` constraints look at paths only: the pattern is a glob, matched like `paths`. */
export function matchesFileRule(rule: ConstraintRule, path: string, globs: GlobMatcher): boolean {
  return inScope(rule.constraint, path, globs) && globs.matches(rule.constraint.pattern, path)
}

/** must_not_exist, per path; must_exist is repository-wide, judged from every path's facts (pipeline/assemble-report.ts). */
export const evaluateFile: TargetEvaluator = (rule, context) => {
  if (rule.constraint.operator !== 'must_not_exist') return []
  return context.input.paths
    .filter((path) => matchesFileRule(rule, path, context.globs))
    .map((path): Finding => ({
      rule,
      file: path,
      line: 1,
      column: 1,
      subject: path,
      message: rule.constraint.message ?? `${path} matches the forbidden glob ${patternText(rule)}`,
      lineHash: noLineHash,
    }))
}

/** The violation of a must_exist constraint no path satisfies. */
export function missingRequiredFile(rule: ConstraintRule): Finding {
  return unsatisfiedEverywhere(rule, `no file matches the required glob ${patternText(rule)}`)
}
