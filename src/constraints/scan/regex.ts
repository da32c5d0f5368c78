import { RE2JS, RE2Set } from 're2js'
import { compileOnce } from '../../knowledge/pattern.js'
import { exactLiterals } from './required-literals.js'
import { unlimited, type ScanBudget } from './scan-budget.js'

type Budget = Pick<ScanBudget, 'spend'>

/**
 * A constraint pattern compiled with RE2 semantics (re2js): matching time is
 * linear in the input, so a pattern from another team's repository cannot hang
 * a pre-commit hook. See knowledge/adr/adr-0006-constraint-patterns-re2js.md.
 */
export interface CompiledPattern {
  /** The whole text matches (dependency names, module specifiers). */
  matchesWhole(text: string): boolean
  /** Start offsets (0-based, UTF-16) of the non-overlapping matches in one line; `found` counts matches already spent from the budget. */
  matchColumns(line: string, budget?: Budget, found?: number): number[]
  /**
   * Start offsets of the matches in a multi-line text, each judged within its
   * own line: one search over the whole text until a match runs across a line
   * break, then each remaining line on its own.
   */
  lineMatchOffsets(text: string, budget?: Budget): number[]
}

/**
 * The starts of the non-overlapping occurrences of `literals` in `text`, leftmost first, as RE2
 * finds a pattern made of them (none begins another, so at most one occurs at any offset). Each
 * literal's next occurrence is looked up again only once a match has passed it.
 */
function literalOffsets(text: string, literals: readonly string[], budget: Budget, found: number): number[] {
  const offsets: number[] = []
  const next = literals.map((literal) => text.indexOf(literal))
  for (let from = 0; ;) {
    let start = -1
    let length = 0
    literals.forEach((literal, index) => {
      let at = next[index] as number
      if (at !== -1 && at < from) next[index] = at = text.indexOf(literal, from)
      if (at !== -1 && (start === -1 || at < start)) {
        start = at
        length = literal.length
      }
    })
    if (start === -1) return offsets
    offsets.push(start)
    budget.spend(found + offsets.length)
    from = start + length
  }
}

export function compilePattern(pattern: string): CompiledPattern {
  const whole = compileOnce(pattern)
  // Plain literal text is located by indexOf: the engine's fixed cost per line was most of a cold check's pattern work.
  const literals = exactLiterals(pattern)
  // Multiline: `^` and `$` anchor at line boundaries when a whole file is searched at once.
  // Compiled on first use: names, specifiers and literal-guided searches never need it.
  let lines: RE2JS | undefined
  // Names and module specifiers repeat across files; each re2js call has a fixed cost.
  const wholeResults = new Map<string, boolean>()
  return {
    matchesWhole(text) {
      let result = wholeResults.get(text)
      if (result === undefined) {
        result = whole.testExact(text)
        wholeResults.set(text, result)
      }
      return result
    },
    matchColumns(line, budget = unlimited, found = 0) {
      if (literals !== undefined) return literalOffsets(line, literals, budget, found)
      const columns: number[] = []
      const matcher = whole.matcher(line)
      while (matcher.find()) {
        columns.push(matcher.start())
        budget.spend(found + columns.length)
        if (matcher.end() >= line.length) break
      }
      return columns
    },
    lineMatchOffsets(text, budget = unlimited) {
      // A literal holds no line break, so each of its occurrences lies within one line.
      if (literals !== undefined) return literalOffsets(text, literals, budget, 0)
      const offsets: number[] = []
      lines ??= RE2JS.compile(pattern, RE2JS.MULTILINE)
      const matcher = lines.matcher(text)
      let from = 0
      while (from <= text.length && matcher.find(from)) {
        const start = matcher.start()
        const end = matcher.end()
        const newline = text.indexOf('\n', start)
        const lineEnd = newline === -1 ? text.length : newline
        if (end <= lineEnd) {
          offsets.push(start)
          budget.spend(offsets.length)
          from = end > start ? end : start + 1
          continue
        }
        // The pattern can span lines: searching the whole text again from the next line would
        // cost the rest of the file for every line (lines x file size), so each line is judged alone.
        const lineStart = text.lastIndexOf('\n', start - 1) + 1
        for (let first = lineStart; first <= text.length;) {
          const next = text.indexOf('\n', first)
          const last = next === -1 ? text.length : next
          for (const column of this.matchColumns(text.slice(first, last), budget, offsets.length)) {
            if (first + column >= start) offsets.push(first + column)
          }
          first = last + 1
          budget.spend(offsets.length)
        }
        break
      }
      return offsets
    },
  }
}

/**
 * Which of several patterns occur in a text, in one pass (RE2's multi-pattern
 * DFA): a file is searched once for every code constraint instead of once per
 * constraint; only the patterns it reports are then located line by line.
 */
export function compilePatternSet(patterns: readonly string[]): (text: string) => ReadonlySet<number> {
  if (patterns.length === 0) return () => new Set()
  const set = new RE2Set(RE2Set.UNANCHORED, RE2JS.MULTILINE)
  for (const pattern of patterns) set.add(pattern)
  set.compile()
  return (text) => new Set(set.match(text))
}
