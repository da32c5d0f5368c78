import { LiteralScanner, type ScannedLiteral } from './literal-scan.js'
import { compilePattern, compilePatternSet, type CompiledPattern } from './regex.js'
import { requiredLiterals, requiredRun, type ClassRun, type RequiredLiterals } from './required-literals.js'

/** What the code search knows about one file. */
export interface FileSearch {
  /** false when the pattern certainly does not occur in the file. */
  mayOccur(index: number): boolean
  /** Start offsets of the pattern's matches, each judged within its own line (see CompiledPattern.lineMatchOffsets). */
  lineMatchOffsets(index: number): number[]
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
  /** Indexes of its literals in the scanner. */
  scanned: number[]
}

/**
 * A line-local pattern's matches lie within lines that contain a literal, and
 * searching such a line alone finds exactly the matches a search of the whole
 * text finds there; the rest of the file is never handed to the engine.
 */
function lineLocalOffsets(regex: CompiledPattern, text: string, lineStarts: readonly number[]): number[] {
  const offsets: number[] = []
  for (const lineStart of lineStarts) {
    const newline = text.indexOf('\n', lineStart)
    const line = text.slice(lineStart, newline === -1 ? text.length : newline)
    for (const column of regex.matchColumns(line)) offsets.push(lineStart + column)
  }
  return offsets
}

const noLines: number[] = []

function linesOfAny(scanned: ReadonlyMap<number, number[]>, literals: readonly number[]): number[] {
  const starts = literals.flatMap((literal) => scanned.get(literal) ?? noLines)
  return starts.length === 0 ? noLines : [...new Set(starts)].sort((a, b) => a - b)
}

/** One scanner for every literal of every pattern. */
function scannerFor(entries: readonly Entry[]): LiteralScanner {
  const literals: ScannedLiteral[] = []
  for (const entry of entries) {
    for (const literal of entry.literals?.anyOf ?? []) entry.scanned.push(literals.push({ text: literal, foldCase: entry.literals?.lowerCase === true }) - 1)
  }
  return new LiteralScanner(literals)
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
    const literals = requiredLiterals(pattern)
    return { regex: regex ?? compilePattern(pattern), literals, run: literals === undefined ? requiredRun(pattern) : undefined, scanned: [] }
  })
  const scanner = scannerFor(entries)
  const withoutLiterals = entries.flatMap((entry, index) => (entry.literals === undefined && entry.run === undefined ? [index] : []))
  const searchRest = compilePatternSet(withoutLiterals.map((index) => patterns[index]?.pattern as string))
  return {
    search(text) {
      const scanned = scanner.scan(text)
      const restFound = withoutLiterals.length > 0 ? new Set([...searchRest(text)].map((found) => withoutLiterals[found])) : new Set<number>()
      const lineStartsByIndex = new Map<number, number[]>()
      const lineStarts = (entry: Entry, index: number): number[] => {
        let starts = lineStartsByIndex.get(index)
        if (starts === undefined) {
          starts = entry.scanned.length === 1 ? (scanned.get(entry.scanned[0] as number) ?? noLines) : linesOfAny(scanned, entry.scanned)
          lineStartsByIndex.set(index, starts)
        }
        return starts
      }
      return {
        mayOccur(index) {
          const entry = entries[index]
          if (entry === undefined) return false
          if (entry.literals !== undefined) return lineStarts(entry, index).length > 0
          return entry.run === undefined ? restFound.has(index) : containsRun(text, entry.run)
        },
        lineMatchOffsets(index) {
          const entry = entries[index]
          if (entry === undefined || !this.mayOccur(index)) return []
          return entry.literals?.lineLocal === true ? lineLocalOffsets(entry.regex, text, lineStarts(entry, index)) : entry.regex.lineMatchOffsets(text)
        },
      }
    },
  }
}
