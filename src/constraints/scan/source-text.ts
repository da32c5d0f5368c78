/** A file's text with lazily built line tables, shared by every constraint that reads the file. */
export class SourceText {
  private lineStarts: number[] | undefined
  private lineList: string[] | undefined

  constructor(
    readonly path: string,
    readonly text: string,
  ) {}

  get lines(): string[] {
    this.lineList ??= this.text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
    return this.lineList
  }

  /**
   * Text of a 1-based line, '' beyond the end; read from the line table,
   * without splitting the file. It is a copy: scans keep line texts after the
   * file is dropped, and a slice would keep the whole file alive.
   */
  line(number: number): string {
    if (this.lineList !== undefined) return detached(this.lineList[number - 1] ?? '')
    const starts = this.starts()
    const start = starts[number - 1]
    if (start === undefined) return ''
    const end = starts[number] === undefined ? this.text.length : (starts[number] as number) - 1
    return detached(this.text.slice(start, this.text.charCodeAt(end - 1) === 0x0d ? end - 1 : end))
  }

  /** 1-based line and column (UTF-16 code units, as SARIF counts by default) of an offset. */
  position(offset: number): { line: number; column: number } {
    const starts = this.starts()
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] as number) <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - (starts[low] as number) + 1 }
  }

  private starts(): number[] {
    if (this.lineStarts === undefined) {
      const starts = [0]
      for (let index = this.text.indexOf('\n'); index !== -1; index = this.text.indexOf('\n', index + 1)) starts.push(index + 1)
      this.lineStarts = starts
    }
    return this.lineStarts
  }
}

/**
 * A copy of a piece of a larger string. V8 represents a slice as a view that
 * keeps its parent alive; prefixing makes a new string, and slicing that
 * flattens it into one no longer than the piece.
 */
export function detached(piece: string): string {
  return ` ${piece}`.slice(1)
}
