import type { ConstraintTarget } from './model.js'

/**
 * Why a constraint's pattern cannot be used, or undefined when it can.
 * `file` patterns are globs; every other target takes a regular expression.
 */
export function patternError(pattern: string, target: ConstraintTarget): string | undefined {
  if (pattern === '') return 'pattern is empty'
  if (target === 'file') return undefined
  try {
    new RegExp(pattern, 'u')
    return undefined
  } catch (error) {
    return `invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`
  }
}
