import { expect } from 'vitest'

/** A field's type as the specification writes it. */
export type FieldType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string|null' | 'any'

/** A DTO as the specification lists it: field -> type; a name ending in `?` may be absent. */
export type DtoSpec = Record<string, FieldType>

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function matches(value: unknown, type: FieldType): boolean {
  if (type === 'any') return value !== undefined
  if (type === 'string|null') return value === null || typeof value === 'string'
  return typeOf(value) === type
}

/**
 * The value is the DTO: every listed field there with its type, every optional one (`name?`)
 * of its type when present, and no other field (the spec's whitelist, rule B).
 */
export function expectDto(value: unknown, spec: DtoSpec, where: string): void {
  expect(typeOf(value), `${where} is an object`).toBe('object')
  const record = value as Record<string, unknown>
  const allowed = new Set(Object.keys(spec).map((key) => key.replace(/\?$/, '')))
  const extra = Object.keys(record).filter((key) => !allowed.has(key))
  expect(extra, `${where}: fields the spec does not list`).toEqual([])
  for (const [key, type] of Object.entries(spec)) {
    const name = key.replace(/\?$/, '')
    if (key.endsWith('?') && record[name] === undefined) continue
    expect(matches(record[name], type), `${where}.${name} is ${type} (got ${JSON.stringify(record[name])})`).toBe(true)
  }
}
