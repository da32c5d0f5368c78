/** The deepest a request body may nest objects and arrays: far beyond any tool input, far below what recursion over it can take. */
export const maxJsonDepth = 64

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, read in one pass before it is parsed:
 * a body of 4 MiB can nest a million levels, and every recursive walk over the parsed value (the
 * input schema, the identity fields, the copy to a tool thread) would overflow the stack on it.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index++
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true
    } else if (code === 0x7d || code === 0x5d) depth--
  }
  return false
}
