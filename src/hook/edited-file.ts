import { MkError } from '../errors.js'

/** The tools of Claude Code that write a file, and the input field naming it. */
export const fileWritingTools: Readonly<Record<string, string>> = {
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
}

/** A file as a tool would leave it: `before` is undefined when the file does not exist yet. */
export interface EditedFile {
  /** As the tool names it: absolute, or relative to the session's directory. */
  path: string
  before: string | undefined
  after: string
}

interface TextEdit {
  oldString: string
  newString: string
  replaceAll: boolean
}

function invalid(field: string, expected: string): MkError {
  const path = field === '' ? 'tool_input' : `tool_input.${field}`
  return new MkError('INVALID_INPUT', `${path}: expected ${expected}`, {
    details: { field: path, hint: "pass the tool's input as Claude Code sends it to a PreToolUse hook" },
  })
}

function requireString(input: Record<string, unknown>, field: string, prefix = ''): string {
  const value = input[field]
  if (typeof value !== 'string') throw invalid(`${prefix}${field}`, 'a string')
  return value
}

function textEdit(input: Record<string, unknown>, prefix: string): TextEdit {
  const replaceAll = input.replace_all
  if (replaceAll !== undefined && typeof replaceAll !== 'boolean') throw invalid(`${prefix}replace_all`, 'true or false')
  return { oldString: requireString(input, 'old_string', prefix), newString: requireString(input, 'new_string', prefix), replaceAll: replaceAll === true }
}

/** Edit's own semantics: the first occurrence, or every one with replace_all; an old_string that is not there changes nothing (the tool fails). */
function applyEdit(text: string, edit: TextEdit): string {
  if (edit.oldString === '') return text === '' ? edit.newString : text
  if (edit.replaceAll) return text.split(edit.oldString).join(edit.newString)
  const at = text.indexOf(edit.oldString)
  return at < 0 ? text : text.slice(0, at) + edit.newString + text.slice(at + edit.oldString.length)
}

function asObject(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'an object')
  return value as Record<string, unknown>
}

/** A notebook as JSON with each cell's source as one string, so the same cells give the same text before and after. */
function notebookText(notebook: Record<string, unknown>): string {
  return JSON.stringify(notebook, null, 1)
}

function parseNotebook(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return { cells: [] }
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { cells: [] }
  } catch {
    return { cells: [] }
  }
}

function editNotebook(before: string | undefined, input: Record<string, unknown>): { before: string | undefined; after: string } {
  const notebook = parseNotebook(before)
  const cells = Array.isArray(notebook.cells) ? [...(notebook.cells as unknown[])] : []
  const mode = input.edit_mode ?? 'replace'
  if (mode !== 'replace' && mode !== 'insert' && mode !== 'delete') throw invalid('edit_mode', 'replace, insert or delete')
  const cellId = input.cell_id
  if (cellId !== undefined && typeof cellId !== 'string') throw invalid('cell_id', 'a string')
  const at = cellId === undefined ? -1 : cells.findIndex((cell) => cell !== null && typeof cell === 'object' && (cell as Record<string, unknown>).id === cellId)
  const source = mode === 'delete' ? '' : requireString(input, 'new_source')
  const cellType = input.cell_type === 'markdown' ? 'markdown' : 'code'
  if (mode === 'insert') cells.splice(at + 1, 0, { cell_type: cellType, source })
  else if (at >= 0 && mode === 'delete') cells.splice(at, 1)
  else if (at >= 0) cells[at] = { ...(cells[at] as Record<string, unknown>), source }
  return { before: before === undefined ? undefined : notebookText(notebook), after: notebookText({ ...notebook, cells }) }
}

/**
 * The file a Write, Edit, MultiEdit or NotebookEdit call would leave behind, computed from its input
 * and the file's current text (`read` gives undefined for a file that does not exist); undefined for
 * any other tool. Malformed input is an error, so a hook refuses what it cannot judge.
 */
export function editedFile(toolName: string, toolInput: unknown, read: (path: string) => string | undefined): EditedFile | undefined {
  const pathField = fileWritingTools[toolName]
  if (pathField === undefined) return undefined
  const input = asObject(toolInput, '')
  const path = requireString(input, pathField)
  if (path === '') throw invalid(pathField, 'a file path')
  const before = read(path)
  switch (toolName) {
    case 'Write':
      return { path, before, after: requireString(input, 'content') }
    case 'Edit':
      return { path, before, after: applyEdit(before ?? '', textEdit(input, '')) }
    case 'MultiEdit': {
      if (!Array.isArray(input.edits)) throw invalid('edits', 'an array of {old_string, new_string, replace_all?}')
      const edits = input.edits.map((edit, index) => textEdit(asObject(edit, `edits[${index}]`), `edits[${index}].`))
      return { path, before, after: edits.reduce(applyEdit, before ?? '') }
    }
    default:
      return { path, ...editNotebook(before, input) }
  }
}
