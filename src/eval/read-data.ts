import { readFile } from 'node:fs/promises'
import { isNodeError, MkError } from '../errors.js'

export function datasetError(message: string, file: string, line?: number): MkError {
  return new MkError('INVALID_INPUT', `${file}${line === undefined ? '' : `:${line}`}: ${message}`, {
    details: { file, ...(line === undefined ? {} : { line }) },
  })
}

export async function readDataFile(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const missing = isNodeError(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')
    throw new MkError(missing ? 'NOT_FOUND' : 'INVALID_INPUT', `cannot read ${what} ${file}: ${missing ? 'no such file' : (error as Error).message}`, {
      details: { file, hint: 'check the path given to --dataset' },
    })
  }
}

/** One JSON object per line; blank lines are skipped. A bad line is an error naming file:line. */
export async function readJsonLines(file: string, what: string): Promise<{ line: number; value: Record<string, unknown> }[]> {
  const text = await readDataFile(file, what)
  const rows: { line: number; value: Record<string, unknown> }[] = []
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch (error) {
      throw datasetError(`not valid JSON (${(error as Error).message})`, file, index + 1)
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw datasetError('expected a JSON object', file, index + 1)
    rows.push({ line: index + 1, value: value as Record<string, unknown> })
  })
  return rows
}

export function stringField(row: Record<string, unknown>, field: string, file: string, line: number): string {
  const value = row[field]
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  throw datasetError(`field "${field}" must be a string`, file, line)
}
