import { z } from 'zod'
import { errorCodes } from '../../errors.js'
import type { AnyTool } from '../define.js'

/** A JSON Schema document as plain data. */
export type JsonSchema = Record<string, unknown>

export const jsonSchemaDialect = 'https://json-schema.org/draft/2020-12/schema'

/**
 * The same schema in the subset common tool-calling clients accept (Gemini, OpenAI
 * and several MCP clients reject `type` arrays, and some reject `propertyNames`):
 * `type: [a, b]` becomes `anyOf: [{type: a}, {type: b}]`, and the redundant
 * `propertyNames: {type: string}` zod writes for records (JSON keys are strings) is dropped.
 */
export function portableSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableSchema)
  if (typeof node !== 'object' || node === null) return node
  const result: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'propertyNames' && isStringTypeOnly(value)) continue
    if (key === 'type' && Array.isArray(value)) {
      result.anyOf = value.map((type: unknown) => ({ type }))
      continue
    }
    // `properties` maps field names to schemas: its keys are names, never keywords.
    result[key] = key === 'properties' && typeof value === 'object' && value !== null ? mapValues(value, portableSchema) : portableSchema(value)
  }
  return result
}

function isStringTypeOnly(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && (value as { type?: unknown }).type === 'string'
}

function mapValues(record: object, map: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]))
}

/** What a caller may send: defaults are optional, transforms are seen from their input side. */
export function inputJsonSchema(tool: AnyTool): JsonSchema {
  return portableSchema(z.toJSONSchema(tool.input, { target: 'draft-2020-12', io: 'input' })) as JsonSchema
}

/** What a caller receives: the output after the dispatcher has parsed (whitelisted) it. */
export function outputJsonSchema(tool: AnyTool): JsonSchema {
  return portableSchema(z.toJSONSchema(tool.output, { target: 'draft-2020-12', io: 'output' })) as JsonSchema
}

const fieldProblemSchema = z.strictObject({
  path: z.string().describe('The field, e.g. "layer" or "tags[2]"; "(root)" for the whole input'),
  expected: z.string(),
  received: z.string(),
  message: z.string(),
})

/** The one error shape (src/errors.ts) every interface returns. */
export const errorObjectSchema = z.strictObject({
  success: z.literal(false),
  errorCode: z.enum(errorCodes),
  message: z.string().describe('What was wrong, where, and how to fix it'),
  details: z
    .looseObject({
      hint: z.string().optional().describe('What to do next'),
      problems: z.array(fieldProblemSchema).optional().describe('INVALID_INPUT: one entry per invalid field'),
    })
    .optional(),
  retryable: z.boolean().describe('True when the same call may succeed later (TIMEOUT, RATE_LIMITED, PROVIDER_ERROR)'),
})

export function errorJsonSchema(): JsonSchema {
  return z.toJSONSchema(errorObjectSchema, { target: 'draft-2020-12', io: 'output' }) as JsonSchema
}

/** The schema without its `$schema` key, for APIs that take a bare parameters object. */
export function withoutDialect(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'))
}
