export interface Column<Row> {
  header: string
  value(row: Row): string
  /** Applied after padding, so colour codes never skew the widths. */
  decorate?: (padded: string, row: Row) => string
  /** Longest width before the value is cut with an ellipsis. */
  max?: number
}

function cut(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text
  return `${text.slice(0, Math.max(0, max - 1))}…`
}

/** A plain-text table: a header row, then one row per item, columns padded to fit. */
export function renderTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[], headerStyle: (text: string) => string): string {
  const cells = rows.map((row) => columns.map((column) => cut(column.value(row), column.max)))
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => line[index]?.length ?? 0)))
  const pad = (text: string, index: number): string => (index === columns.length - 1 ? text : text.padEnd(widths[index] ?? 0))
  const header = headerStyle(columns.map((column, index) => pad(column.header, index)).join('  '))
  const body = cells.map((line, rowIndex) =>
    line
      .map((cell, index) => {
        const padded = pad(cell, index)
        const decorate = columns[index]?.decorate
        const row = rows[rowIndex]
        return decorate === undefined || row === undefined ? padded : decorate(padded, row)
      })
      .join('  ')
      .trimEnd(),
  )
  return [header.trimEnd(), ...body].join('\n')
}
