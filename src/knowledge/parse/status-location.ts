import type { BodyLine } from './body-lines.js'
import { readStatus } from './status-words.js'

/** A status as written in the body, before its words are read. */
export interface WrittenStatus {
  /** The markdown that holds the status; for a section, all of it (links to other ADRs live there). */
  text: string
  line: number
}

const statusLabel = /^status\s*[:=]\s*(.*)$/i

function withoutMarkup(text: string): string {
  return text
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
    .replace(/\*\*|__/g, '')
    .trim()
}

/** `Status: accepted`, `* Status: accepted`, `- **Status**: accepted`, `**Status:** accepted`. */
function labelledStatus(line: BodyLine): string | undefined {
  if (line.hidden || line.heading !== undefined) return undefined
  return statusLabel.exec(withoutMarkup(line.text))?.[1]?.trim() || undefined
}

function tableCells(text: string): string[] | undefined {
  const trimmed = text.trim()
  if (!trimmed.startsWith('|')) return undefined
  return trimmed
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => withoutMarkup(cell))
}

const isStatusWord = (cell: string | undefined): boolean => cell !== undefined && /^status:?$/i.test(cell)
const isSeparatorRow = (cells: string[]): boolean => cells.every((cell) => /^:?-+:?$/.test(cell))

/** A `| Status | Accepted |` row, or a header row with a Status column and the data row under it. */
function tableStatus(lines: readonly BodyLine[], index: number): WrittenStatus | undefined {
  const row = lines[index]
  const cells = row === undefined || row.hidden ? undefined : tableCells(row.text)
  if (row === undefined || cells === undefined) return undefined
  const separator = tableCells(lines[index + 1]?.text ?? '')
  const isHeaderRow = separator !== undefined && isSeparatorRow(separator)
  // `| Status | Accepted |` may itself be the header row of a two-column table; `| Status | Date |` is not a value.
  const value = cells[1]
  if (isStatusWord(cells[0]) && value !== undefined && value !== '' && (!isHeaderRow || readStatus(value).known)) return { text: value, line: row.line }
  const column = cells.findIndex((cell) => isStatusWord(cell))
  const data = lines[index + 2]
  if (column < 0 || !isHeaderRow || data === undefined) return undefined
  const cell = tableCells(data.text)?.[column]
  return cell === undefined || cell === '' ? undefined : { text: cell, line: data.line }
}

function headingName(text: string): string {
  return withoutMarkup(text)
    .replace(/^[^\p{L}]+/u, '')
    .replace(/[\s:]+$/, '')
    .toLowerCase()
}

/** A `## Status` section (any depth): its text up to the next heading; or a heading `## Status: Accepted`. */
function sectionStatus(lines: readonly BodyLine[]): WrittenStatus | undefined {
  const start = lines.findIndex(
    (line) => line.heading !== undefined && (headingName(line.heading.text) === 'status' || statusLabel.test(headingName(line.heading.text))),
  )
  const heading = lines[start]?.heading
  if (heading === undefined) return undefined
  const inline = statusLabel.exec(withoutMarkup(heading.text))?.[1]?.trim()
  if (inline !== undefined && inline !== '') return { text: inline, line: lines[start]?.line ?? 1 }
  const next = lines.findIndex((line, index) => index > start && line.heading !== undefined)
  const section = lines.slice(start + 1, next < 0 ? undefined : next).filter((line) => !line.hidden)
  const first = section.findIndex((line) => line.text.trim() !== '')
  const firstLine = section[first]
  if (firstLine === undefined) return undefined
  const labelled = labelledStatus(firstLine)
  if (labelled !== undefined) return { text: labelled, line: firstLine.line }
  const table = tableStatus(section, first)
  if (table !== undefined) return table
  return {
    text: section
      .slice(first)
      .map((line) => line.text)
      .join('\n')
      .trim(),
    line: firstLine.line,
  }
}

/**
 * Where people write a status in the body: a Status section, else a `Status:` line or a status
 * table row or column in the header (the lines before the second heading). Code blocks and HTML comments are never read.
 */
export function findWrittenStatus(lines: readonly BodyLine[]): WrittenStatus | undefined {
  const section = sectionStatus(lines)
  if (section !== undefined) return section
  const headings = lines.flatMap((line, index) => (line.heading !== undefined ? [index] : []))
  const headerEnd = headings[1] ?? lines.length
  for (let index = 0; index < headerEnd; index++) {
    const line = lines[index]
    if (line === undefined) continue
    const labelled = labelledStatus(line)
    if (labelled !== undefined) return { text: labelled, line: line.line }
    const table = tableStatus(lines, index)
    if (table !== undefined) return table
  }
  return undefined
}
