import { regexSyntaxError } from '../constraints/scan/regex.js'
import type { ConstraintTarget } from './model.js'

/**
 * Why a constraint's pattern cannot be used, or undefined when it can.
 * `file` patterns are globs; every other target takes a regular expression in
 * RE2 syntax, validated by the same engine `mk knowledge check` matches with.
 */
export function patternError(pattern: string, target: ConstraintTarget): string | undefined {
  if (pattern === '') return 'pattern is empty'
  if (target === 'file') return undefined
  const problem = regexSyntaxError(pattern)
  return problem === undefined ? undefined : `invalid regular expression ${JSON.stringify(pattern)} (RE2 syntax): ${problem}`
}
