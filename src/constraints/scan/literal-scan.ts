export interface ScannedLiteral {
  text: string
  /** ASCII letters also match their other case, and `k` the Kelvin sign, as RE2's `(?i)` does; `text` is then lower case. */
  foldCase: boolean
}

const syntaxCharacters = /[\\^$.*+?()[\]{}|/]/gu

/** Other characters RE2's `(?i)` folds onto an ASCII letter: the Kelvin sign, the long s. */
const foldedOnto: Readonly<Record<string, string>> = { k: '\u212a', s: '\u017f' }

/** The literal as regular expression atoms, one per character; a folded letter becomes the class of every character RE2's `(?i)` folds onto it. */
function atoms({ text, foldCase }: ScannedLiteral): string[] {
  return [...text].map((char) => {
    const lower = char === '\u017f' ? 's' : char.toLowerCase()
    if (!foldCase || !/^[a-z]$/u.test(lower)) return char.replace(syntaxCharacters, '\\$&')
    return `[${lower}${lower.toUpperCase()}${foldedOnto[lower] ?? ''}]`
  })
}

/** Shared prefixes are factored out (`d(?:ebugger|ocument)`) to this depth: V8 then tries fewer alternatives at each position. */
const factoredDepth = 8

/**
 * One expression that matches wherever any of the literals (as atoms) starts.
 * A literal that another one starts with makes the longer one redundant here.
 */
function alternation(literals: readonly (readonly string[])[], depth = 0): string {
  if (literals.some((literal) => literal.length === 0)) return ''
  if (depth === factoredDepth) return `(?:${[...new Set(literals.map((literal) => literal.join('')))].join('|')})`
  const byFirst = new Map<string, (readonly string[])[]>()
  for (const literal of literals) {
    const first = literal[0] as string
    const rests = byFirst.get(first)
    if (rests === undefined) byFirst.set(first, [literal.slice(1)])
    else rests.push(literal.slice(1))
  }
  const branches = [...byFirst].map(([first, rests]) => first + alternation(rests, depth + 1))
  return branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`
}

/**
 * Finds which of many literals occur in a text, and on which lines. V8's own
 * search runs over the text once for all literals: one regular expression,
 * the alternation of the escaped literals. An alternation of plain literals
 * cannot backtrack further than its longest literal at any position, so V8 is
 * safe here; constraint patterns themselves are matched only by re2js. Folded
 * case is written out as classes, so V8 folds exactly as RE2 does.
 * Prefixes the literals share are factored out, which V8 does not do itself.
 *
 * A line the alternation hits is then tested for each literal, which finds
 * literals that overlap or start where another one does.
 */
export class LiteralScanner {
  private readonly anyLiteral: RegExp | undefined
  /** Whether a line holds the literal, by literal index. */
  private readonly onLine: ((line: string) => boolean)[]

  constructor(literals: readonly ScannedLiteral[]) {
    if (literals.some(({ text }) => text === '' || text.includes('\n'))) throw new Error('a scanned literal must be non-empty and within one line')
    const asAtoms = literals.map(atoms)
    // mk-ignore constraint-patterns-not-regexp -- escaped literals, not a constraint pattern: cannot backtrack (see above)
    this.anyLiteral = literals.length === 0 ? undefined : new RegExp(alternation(asAtoms), 'g')
    this.onLine = literals.map((literal, index) => {
      if (!literal.foldCase) return (line) => line.includes(literal.text)
      // mk-ignore constraint-patterns-not-regexp -- one escaped literal
      const pattern = new RegExp(asAtoms[index]?.join('') ?? '')
      return (line) => pattern.test(line)
    })
  }

  /** By literal index, the ascending start offsets of the lines it occurs on; literals that do not occur are absent. */
  scan(text: string): Map<number, number[]> {
    const lines = new Map<number, number[]>()
    const { anyLiteral, onLine } = this
    if (anyLiteral === undefined) return lines
    anyLiteral.lastIndex = 0
    for (let hit = anyLiteral.exec(text); hit !== null; hit = anyLiteral.exec(text)) {
      const lineStart = hit.index === 0 ? 0 : text.lastIndexOf('\n', hit.index - 1) + 1
      const newline = text.indexOf('\n', hit.index)
      const lineEnd = newline === -1 ? text.length : newline
      const line = text.slice(lineStart, lineEnd)
      onLine.forEach((holds, literal) => {
        if (!holds(line)) return
        const starts = lines.get(literal)
        if (starts === undefined) lines.set(literal, [lineStart])
        else starts.push(lineStart)
      })
      // No literal spans a line break: the rest of this line is done.
      anyLiteral.lastIndex = lineEnd
    }
    return lines
  }
}
