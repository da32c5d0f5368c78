import { LiteralScanner, type ScannedLiteral } from './literal-scan.js'
import { compilePattern, compilePatternSet, type CompiledPattern } from './regex.js'
import { requiredLiterals, requiredRun, type ClassRun, type RequiredLiterals } from './required-literals.js'
import { unlimited, type ScanBudget } from './scan-budget.js'

/** What the code search knows about one file. */
export interface FileSearch {
  /** false when the pattern certainly does not occur in the file. */
  mayOccur(index: number): boolean
  /** Start offsets of the pattern's matches, each judged within its own line (see CompiledPattern.lineMatchOffsets). */
  lineMatchOffsets(index: number, budget?: Pick<ScanBudget, 'spend'>): readonly number[]
}

/** The code patterns of a check: `search` reads a file once for all of them. */
export interface CodeSearch {
  search(text: string): FileSearch
}

interface Entry {
  regex: CompiledPattern
  literals: RequiredLiterals | undefined
  /** Tested when the pattern has no literal. */
  run: ClassRun | undefined
}

/**
 * A line-local pattern's matches lie within lines that contain a literal, and
 * searching such a line alone finds exactly the matches a search of the whole
 * text finds there; the rest of the file is never handed to the engine.
 */
function lineLocalOffsets(regex: CompiledPattern, text: string, lineStarts: readonly number[], budget: Pick<ScanBudget, 'spend'>): number[] {
  const offsets: number[] = []
  for (const lineStart of lineStarts) {
    const newline = text.indexOf('\n', lineStart)
    const line = text.slice(lineStart, newline === -1 ? text.length : newline)
    for (const column of regex.matchColumns(line, budget, offsets.length)) offsets.push(lineStart + column)
    budget.spend(offsets.length)
  }
  return offsets
}

const noOffsets: readonly number[] = []

/** The ascending union of two ascending lists of line starts. */
function mergeLines(left: readonly number[], right: readonly number[]): number[] {
  const merged: number[] = []
  let l = 0
  let r = 0
  while (l < left.length || r < right.length) {
    const next = r >= right.length || (l < left.length && (left[l] as number) <= (right[r] as number)) ? (left[l++] as number) : (right[r++] as number)
    if (merged[merged.length - 1] !== next) merged.push(next)
  }
  return merged
}

/** One scanner for every literal of every pattern, and which entry each literal belongs to. */
function scannerFor(entries: readonly Entry[]): { scanner: LiteralScanner; owners: number[] } {
  const literals: ScannedLiteral[] = []
  const owners: number[] = []
  entries.forEach((entry, index) => {
    for (const literal of entry.literals?.anyOf ?? []) {
      literals.push({ text: literal, foldCase: entry.literals?.lowerCase === true })
      owners.push(index)
    }
  })
  return { scanner: new LiteralScanner(literals), owners }
}

function isMember(members: Uint8Array, unit: number): boolean {
  return unit < 128 && members[unit] === 1
}

/**
 * Whether the text holds `min` consecutive members. Such a run covers one of
 * every `min`-th characters, so only those are read, and extended both ways
 * when they are members.
 */
function containsRun(text: string, { members, min }: ClassRun): boolean {
  for (let probe = min - 1; probe < text.length; probe += min) {
    if (!isMember(members, text.charCodeAt(probe))) continue
    let start = probe
    while (start > 0 && isMember(members, text.charCodeAt(start - 1))) start--
    let end = probe + 1
    while (end < text.length && end - start < min && isMember(members, text.charCodeAt(end))) end++
    if (end - start >= min) return true
  }
  return false
}

/**
 * A pattern with required literals occurs only in files that contain one of
 * them, which one automaton pass over the file tells for every pattern. A
 * pattern without literals but with a required run of class characters
 * (`[A-Z0-9]{32,}`) is tested by counting; the rest share one RE2Set pass.
 */
export function compileCodeSearch(patterns: readonly { pattern: string; regex?: CompiledPattern | undefined }[]): CodeSearch {
  const entries: Entry[] = patterns.map(({ pattern, regex }) => {
    const required = requiredLiterals(pattern)
    // The scanner reads line by line; a literal with a line break is not worth modelling.
    const literals = required?.anyOf.some((literal) => literal.includes('\n')) === true ? undefined : required
    return { regex: regex ?? compilePattern(pattern), literals, run: literals === undefined ? requiredRun(pattern) : undefined }
  })
  const { scanner, owners } = scannerFor(entries)
  const withoutLiterals = entries.flatMap((entry, index) => (entry.literals === undefined && entry.run === undefined ? [index] : []))
  const searchRest = compilePatternSet(withoutLiterals.map((index) => patterns[index]?.pattern as string))
  const noneFound: ReadonlySet<number> = new Set()
  return {
    search(text) {
      // Lines with a literal, by entry: only the few entries whose literals occur in the file get a list.
      const linesByEntry = new Map<number, readonly number[]>()
      for (const [literal, starts] of scanner.scan(text)) {
        const owner = owners[literal] as number
        const known = linesByEntry.get(owner)
        linesByEntry.set(owner, known === undefined ? starts : mergeLines(known, starts))
      }
      const restFound = withoutLiterals.length > 0 ? new Set([...searchRest(text)].map((found) => withoutLiterals[found])) : noneFound
      return {
        mayOccur(index) {
          const entry = entries[index]
          if (entry === undefined) return false
          if (entry.literals !== undefined) return linesByEntry.has(index)
          return entry.run === undefined ? restFound.has(index) : containsRun(text, entry.run)
        },
        lineMatchOffsets(index, budget = unlimited) {
          const entry = entries[index]
          if (entry === undefined || !this.mayOccur(index)) return noOffsets
          const lines = linesByEntry.get(index)
          return entry.literals?.lineLocal === true && lines !== undefined
            ? lineLocalOffsets(entry.regex, text, lines, budget)
            : entry.regex.lineMatchOffsets(text, budget)
        },
      }
    },
  }
}
