import { describe, expect, it } from 'vitest'
import { inputJsonSchema, outputJsonSchema, portableSchema } from '../../../src/tools/generate/json-schema.js'
import { tools } from '../../../src/tools/registry.js'

/* issue 12: tool schemas avoid JSON Schema features common tool-calling clients reject. */

/** Every place a schema keyword in `keys` is used, as tool:path. */
function uses(schema: unknown, where: string, check: (node: Record<string, unknown>) => string | undefined, found: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((item, index) => uses(item, `${where}[${index}]`, check, found))
  else if (typeof schema === 'object' && schema !== null) {
    const node = schema as Record<string, unknown>
    const problem = check(node)
    if (problem !== undefined) found.push(`${where}: ${problem}`)
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        for (const [name, property] of Object.entries(value)) uses(property, `${where}.${name}`, check, found)
      } else uses(value, `${where}.${key}`, check, found)
    }
  }
  return found
}

function rejectedFeature(node: Record<string, unknown>): string | undefined {
  if (Array.isArray(node.type)) return 'type array'
  if ('propertyNames' in node) return 'propertyNames'
  if ('$ref' in node || '$defs' in node || 'definitions' in node) return '$ref/$defs'
  if ('patternProperties' in node) return 'patternProperties'
  return undefined
}

function nullInAnyOf(node: Record<string, unknown>): string | undefined {
  const branches = node.anyOf ?? node.oneOf
  return Array.isArray(branches) && branches.some((branch) => (branch as { type?: unknown }).type === 'null') ? 'anyOf with null' : undefined
}

describe('generated tool schemas', () => {
  it('use no type arrays, propertyNames, $ref or patternProperties, in input or output', () => {
    const found = tools.flatMap((tool) => [
      ...uses(inputJsonSchema(tool), `${tool.name} input`, rejectedFeature),
      ...uses(outputJsonSchema(tool), `${tool.name} output`, rejectedFeature),
    ])
    expect(found).toEqual([])
  })

  it('never offer null in an input', () => {
    expect(tools.flatMap((tool) => uses(inputJsonSchema(tool), `${tool.name} input`, nullInAnyOf))).toEqual([])
  })

  it('keep what the schema allows: a type array becomes anyOf, the record of scalars stays a record of scalars', () => {
    expect(portableSchema({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: ['string', 'number', 'boolean'] } })).toEqual({
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    })
    expect(portableSchema({ properties: { propertyNames: { type: 'string' }, type: { type: ['string', 'null'] } } })).toEqual({
      properties: { propertyNames: { type: 'string' }, type: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    })
    const memoryAdd = tools.find((tool) => tool.name === 'memory_add')
    expect((inputJsonSchema(memoryAdd!).properties as Record<string, unknown>).metadata).toMatchObject({
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    })
  })
})
