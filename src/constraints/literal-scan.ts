export interface ScannedLiteral {
  text: string
  /** ASCII letters also match their other case, and `k` the Kelvin sign, as RE2's `(?i)` does; `text` is then lower case. */
  foldCase: boolean
}

const kelvinSign = 0x212a

/**
 * Finds which of many literals occur in a text, in one pass over
 * its UTF-16 code units: an Aho-Corasick automaton compiled to a table, one
 * look-up per character whatever the number of literals (a loop of `includes`
 * reads the text once per literal). The automaton folds case; a hit of a
 * case-sensitive literal is confirmed against the text.
 */
export class LiteralScanner {
  /** Code unit -> column of the transition table; 0 for every unit no literal uses. */
  private readonly unitClass = new Uint16Array(0x10000)
  private readonly width: number
  /**
   * Row offset (state * width) of the next state, by row offset + column;
   * bitwise negated when some literal ends in that state, so the loop tests
   * for a hit without a second table.
   */
  private readonly next: Int32Array
  /** Literals that end in each state (through failure links too), by row offset. */
  private readonly ending = new Map<number, readonly number[]>()

  constructor(private readonly literals: readonly ScannedLiteral[]) {
    let classes = 1
    const classOf = (unit: number): number => {
      const folded = unit === kelvinSign ? 0x6b : unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit
      if (this.unitClass[folded] === 0) {
        this.unitClass[folded] = classes
        if (folded >= 0x61 && folded <= 0x7a) this.unitClass[folded - 0x20] = classes
        if (folded === 0x6b) this.unitClass[kelvinSign] = classes
        classes++
      }
      return this.unitClass[folded] as number
    }
    const trie: number[][] = [[]]
    const ends: number[][] = [[]]
    literals.forEach(({ text }, literalIndex) => {
      let state = 0
      for (let index = 0; index < text.length; index++) {
        const column = classOf(text.charCodeAt(index))
        const row = trie[state] as number[]
        let child = row[column]
        if (child === undefined) {
          child = trie.length
          row[column] = child
          trie.push([])
          ends.push([])
        }
        state = child
      }
      ends[state]?.push(literalIndex)
    })
    this.width = classes
    const next = new Int32Array(trie.length * classes)
    const endingByState: (readonly number[])[] = []
    // Breadth first: a state's failure target is always complete before the state itself.
    const failure = new Int32Array(trie.length)
    const queue = [0]
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as number
      endingByState[state] = [...(ends[state] ?? []), ...(state === 0 ? [] : (endingByState[failure[state] as number] ?? []))]
      for (let column = 0; column < classes; column++) {
        const child = trie[state]?.[column]
        const fallback = state === 0 ? 0 : (next[(failure[state] as number) * classes + column] as number)
        if (child === undefined) {
          next[state * classes + column] = fallback
        } else {
          next[state * classes + column] = child
          failure[child] = fallback
          queue.push(child)
        }
      }
    }
    endingByState.forEach((ending, state) => {
      if (ending.length > 0) this.ending.set(state * classes, ending)
    })
    // The scan loop indexes rows directly: one multiplication less per character.
    this.next = next.map((state) => (this.ending.has(state * classes) ? ~(state * classes) : state * classes))
  }

  /** By literal index, the ascending start offsets of the lines it ends on; literals that do not occur are absent. */
  scan(text: string): Map<number, number[]> {
    const lines = new Map<number, number[]>()
    const { unitClass, next, literals } = this
    let row = 0
    for (let index = 0; index < text.length; index++) {
      const entry = next[row + (unitClass[text.charCodeAt(index)] as number)] as number
      if (entry >= 0) {
        row = entry
        continue
      }
      row = ~entry
      // Hits are rare: the line is looked up only for them.
      for (const literal of this.ending.get(row) ?? []) {
        const { text: literalText, foldCase } = literals[literal] as ScannedLiteral
        if (!foldCase && !text.startsWith(literalText, index + 1 - literalText.length)) continue
        const lineStart = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1
        const starts = lines.get(literal)
        if (starts === undefined) lines.set(literal, [lineStart])
        else if (starts[starts.length - 1] !== lineStart) starts.push(lineStart)
      }
    }
    return lines
  }
}
