import { RE2JS } from 're2js'
import type { ConstraintTarget } from './model.js'

/** Each pattern is compiled once per process: loading knowledge validates it, the check compiles it again. */
const compiledPatterns = new Map<string, RE2JS>()

/** A constraint pattern compiled with RE2 semantics; knowledge validates with it and the check matches with it. */
export function compileOnce(pattern: string): RE2JS {
  let compiled = compiledPatterns.get(pattern)
  if (compiled === undefined) {
    compiled = RE2JS.compile(pattern)
    compiledPatterns.set(pattern, compiled)
  }
  return compiled
}

/** Why the pattern cannot be compiled, or undefined when it can. */
function regexSyntaxError(pattern: string): string | undefined {
  try {
    compileOnce(pattern)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

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
