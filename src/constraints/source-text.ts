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

  /** Text of a 1-based line, '' beyond the end; read from the line table, without splitting the file. */
  line(number: number): string {
    if (this.lineList !== undefined) return this.lineList[number - 1] ?? ''
    const starts = this.starts()
    const start = starts[number - 1]
    if (start === undefined) return ''
    const end = starts[number] === undefined ? this.text.length : (starts[number] as number) - 1
    const text = this.text.slice(start, end)
    return text.endsWith('\r') ? text.slice(0, -1) : text
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
