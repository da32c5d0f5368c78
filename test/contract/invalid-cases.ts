import type { AnyTool } from '../../src/tools/define.js'
import { inputJsonSchema, type JsonSchema } from '../../src/tools/generate/json-schema.js'

export interface InvalidCase {
  kind: 'missing field' | 'wrong type' | 'extra property'
  input: Record<string, unknown>
  /** The field the INVALID_INPUT error must name. */
  field: string
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** The JSON types a property schema accepts; undefined when it accepts anything. */
function acceptedTypes(schema: JsonSchema): Set<string> | undefined {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (alternatives !== undefined) {
    const sets = alternatives.map(acceptedTypes)
    if (sets.some((set) => set === undefined)) return undefined
    return new Set(sets.flatMap((set) => [...(set ?? [])]))
  }
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonTypeOf))
  if ('const' in schema) return new Set([jsonTypeOf(schema.const)])
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : undefined
  if (types === undefined) return undefined
  const set = new Set(types as string[])
  if (set.has('number')) set.add('integer')
  return set
}

const wrongValues: readonly unknown[] = [12345, 'not-what-you-want', true, { unexpected: 1 }]

/** Invalid inputs made from a tool's first example and its input schema, so every tool is covered without hand-written cases. */
export function invalidCases(tool: AnyTool): InvalidCase[] {
  const schema = inputJsonSchema(tool)
  const valid = { ...(tool.examples[0]?.input as Record<string, unknown>) }
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = (schema.required ?? []) as string[]
  const cases: InvalidCase[] = [{ kind: 'extra property', input: { ...valid, unexpected_field: true }, field: 'unexpected_field' }]
  const missing = required[0]
  if (missing !== undefined) {
    const input = { ...valid }
    delete input[missing]
    cases.push({ kind: 'missing field', input, field: missing })
  }
  for (const [field, property] of Object.entries(properties)) {
    const accepted = acceptedTypes(property)
    const wrong = accepted === undefined ? undefined : wrongValues.find((value) => !accepted.has(jsonTypeOf(value)))
    if (wrong === undefined) continue
    cases.push({ kind: 'wrong type', input: { ...valid, [field]: wrong }, field })
    break
  }
  return cases
}
