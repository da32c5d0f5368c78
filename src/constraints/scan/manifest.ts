import { MkError } from '../../errors.js'
import type { SourceText } from './source-text.js'

export interface ManifestDependency {
  name: string
  version: string | undefined
  /** The package.json field it is listed in. */
  field: string
  /** 1-based position of its key. */
  line: number
  column: number
}

const jsonToken = /"(?:[^"\\\n]|\\.)*"|[{}[\]:,]|[^\s{}[\]:,"]+/g

/**
 * Dependencies of a package.json with the position of each key, so a violation
 * points at the line a reviewer has to change. Invalid JSON is an input error.
 */
export function readManifest(source: SourceText, fields: readonly string[]): ManifestDependency[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(source.text)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `${source.path}: not valid JSON (${(error as Error).message}); the dependency constraints cannot be checked`, {
      details: { file: source.path, hint: 'fix the file, or exclude it with check.ignore in .mkrc' },
    })
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return []
  const manifest = parsed as Record<string, unknown>
  const positions = keyPositions(source, new Set(fields))
  const dependencies: ManifestDependency[] = []
  for (const field of fields) {
    const entries = manifest[field]
    if (entries === null || typeof entries !== 'object' || Array.isArray(entries)) continue
    for (const [name, version] of Object.entries(entries as Record<string, unknown>)) {
      const position = positions.get(`${field}\0${name}`) ?? { line: 1, column: 1 }
      dependencies.push({ name, version: typeof version === 'string' ? version : undefined, field, ...position })
    }
  }
  return dependencies
}

/** Positions of the keys one level inside the given top-level fields, keyed `field\0name`. */
function keyPositions(source: SourceText, fields: ReadonlySet<string>): Map<string, { line: number; column: number }> {
  const positions = new Map<string, { line: number; column: number }>()
  /** Per open container: the key it was opened under, and whether it is an object. */
  const stack: { key: string | undefined; isObject: boolean }[] = []
  let pendingKey: string | undefined
  let lastString: { value: string; offset: number } | undefined
  for (const match of source.text.matchAll(jsonToken)) {
    const token = match[0]
    if (token === '{' || token === '[') {
      stack.push({ key: pendingKey, isObject: token === '{' })
      pendingKey = undefined
    } else if (token === '}' || token === ']') {
      stack.pop()
    } else if (token === ':') {
      if (lastString === undefined) continue
      pendingKey = lastString.value
      const parent = stack[stack.length - 1]
      if (stack.length === 2 && parent?.isObject === true && parent.key !== undefined && fields.has(parent.key)) {
        positions.set(`${parent.key}\0${lastString.value}`, source.position(lastString.offset))
      }
    } else if (token === ',') {
      pendingKey = undefined
    }
    lastString = token.startsWith('"') ? { value: JSON.parse(token) as string, offset: match.index } : undefined
  }
  return positions
}
