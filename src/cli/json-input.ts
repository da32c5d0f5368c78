import { text } from 'node:stream/consumers'
import { MkError } from '../errors.js'

/** All of standard input, as text. */
export function readStdin(): Promise<string> {
  return text(process.stdin)
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
