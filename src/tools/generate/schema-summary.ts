import type { JsonSchema } from './json-schema.js'

export interface FieldSummary {
  name: string
  type: string
  required: boolean
  description: string
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A short human reading of a JSON Schema type: `"adr" | "policy"`, `array of string`, `string or array of string`. */
export function describeType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  if ('const' in schema) return JSON.stringify(schema.const)
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
  if (alternatives !== undefined) {
    const [one, many] = alternatives.filter(isSchema)
    // oneOrMany(): a value or a list of such values.
    if (alternatives.length === 2 && one !== undefined && many?.type === 'array' && JSON.stringify(many.items) === JSON.stringify(one)) {
      return `${describeType(one)}, or an array of them`
    }
    return alternatives.filter(isSchema).map(describeType).join(' or ')
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : typeof schema.type === 'string' ? schema.type : 'any'
  if (type === 'array') return `array of ${isSchema(schema.items) ? describeType(schema.items) : 'any'}`
  if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`
  if (type === 'object' && isSchema(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : [])
    return `object {${Object.keys(schema.properties)
      .map((key) => (required.has(key) ? key : `${key}?`))
      .join(', ')}}`
  }
  return type
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** The top-level fields of an object schema, in declaration order. */
export function summarizeFields(schema: JsonSchema): FieldSummary[] {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  return Object.entries(properties).map(([name, property]) => {
    const field = isSchema(property) ? property : {}
    const description = typeof field.description === 'string' ? oneLine(field.description) : ''
    const parts = [description === '' || /[.!?]$/.test(description) ? description : `${description}.`]
    if ('default' in field) parts.push(`Default: \`${JSON.stringify(field.default)}\`.`)
    return { name, type: describeType(field), required: required.has(name), description: parts.filter((part) => part !== '').join(' ') }
  })
}
