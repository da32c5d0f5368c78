import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { text } from 'node:stream/consumers'
import { isNodeError, MkError } from '../../errors.js'

/** Where the text of standard input is kept once read: a global, so the hook's fast path (a bundle of its own) hands it to mk's. */
const stdinKey = Symbol.for('mk.stdin')

/** All of standard input, as text; read once per process, every later call gets the same text. */
export function readStdin(): Promise<string> {
  const shared = globalThis as { [stdinKey]?: Promise<string> }
  shared[stdinKey] ??= text(process.stdin)
  return shared[stdinKey]
}

/** Parse a JSON object a person or agent passed on the command line; `source` names where it came from (a flag). */
export function parseJsonObject(raw: string, source: string, hint: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `${source}: not valid JSON (${(error as Error).message})`, { details: { hint } })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MkError('INVALID_INPUT', `${source}: expected a JSON object`, { details: { hint } })
  }
  return value as Record<string, unknown>
}

/** A JSON object from a file, or from stdin when the value is `-` (`--context FILE|-`); `flag` names where it came from. */
export async function readJsonObjectFile(value: string, flag: string, hint: string): Promise<Record<string, unknown>> {
  if (value === '-') return parseJsonObject(await readStdin(), `${flag} - (stdin)`, hint)
  let raw: string
  try {
    raw = await readFile(resolve(value), 'utf8')
  } catch (error) {
    const reason = isNodeError(error) && error.code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new MkError('INVALID_INPUT', `${flag}: cannot read ${value}: ${reason}`, { details: { field: flag, hint } })
  }
  return parseJsonObject(raw, `${flag} ${value}`, hint)
}
