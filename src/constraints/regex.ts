import { RE2JS } from 're2js'

/**
 * A constraint pattern compiled with RE2 semantics (re2js): matching time is
 * linear in the input, so a pattern from another team's repository cannot hang
 * a pre-commit hook. See knowledge/adr/0001-match-constraint-patterns-with-re2js.md.
 */
export interface CompiledPattern {
  /** The whole text matches (dependency names, module specifiers). */
  matchesWhole(text: string): boolean
  /** Some part of the text matches. */
  occursIn(text: string): boolean
  /** Start offsets (0-based, UTF-16) of the non-overlapping matches in one line. */
  matchColumns(line: string): number[]
}

/** Why the pattern cannot be compiled, or undefined when it can. */
export function regexSyntaxError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

export function compilePattern(pattern: string): CompiledPattern {
  const whole = RE2JS.compile(pattern)
  // Multiline: `^` and `$` anchor at line boundaries when a whole file is searched at once.
  const lines = RE2JS.compile(pattern, RE2JS.MULTILINE)
  return {
    matchesWhole: (text) => whole.testExact(text),
    occursIn: (text) => lines.test(text),
    matchColumns(line) {
      const columns: number[] = []
      const matcher = whole.matcher(line)
      while (matcher.find()) {
        columns.push(matcher.start())
        if (matcher.end() >= line.length) break
      }
      return columns
    },
  }
}
