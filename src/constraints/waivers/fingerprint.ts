import { sha256Hex } from '../../hash.js'

function shortHash(text: string): string {
  return sha256Hex(text).slice(0, 16)
}

/** Hash of a line's trimmed text: what version 1 baselines were keyed by. */
export function lineHash(lineText: string): string {
  return shortHash(lineText.trim())
}

/**
 * Hash of what violates (a dependency name, a module specifier, the matched
 * code, a path): unlike the line, it does not change when a trailing comma or
 * a neighbour on the same line does.
 */
export function subjectHash(subject: string): string {
  return shortHash(subject.trim())
}
