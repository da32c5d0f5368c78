import { Ajv2020 } from 'ajv/dist/2020.js'
import formatsPlugin from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import type { AnyTool } from '../../src/tools/define.js'
import type { ManifestTool } from '../../src/tools/generate/manifest-schema.js'
import { toolsExport } from '../../src/tools/catalog/export.js'
import { toolsManifest } from '../../src/tools/catalog/manifest.js'
import { currentManifest } from '../../src/tools/catalog/registered.js'
import { toolsSkill } from '../../src/tools/catalog/skill.js'
import { tools } from '../../src/tools/registry.js'
import { inputJsonSchema, outputJsonSchema, type JsonSchema } from '../../src/tools/generate/json-schema.js'

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020

function compiler(): Ajv2020 {
  return addFormats(new Ajv2020({ strict: false, allErrors: true }))
}

/** Every object node of a schema, with where it is. */
function objectNodes(schema: unknown, at = '#'): { at: string; node: JsonSchema }[] {
  if (typeof schema !== 'object' || schema === null) return []
  if (Array.isArray(schema)) return schema.flatMap((item, index) => objectNodes(item, `${at}/${index}`))
  const node = schema as JsonSchema
  const own = node.type === 'object' ? [{ at, node }] : []
  return [...own, ...Object.entries(node).flatMap(([key, value]) => objectNodes(value, `${at}/${key}`))]
}

const manifest = await currentManifest()
const described = new Map<string, ManifestTool>(manifest.tools.map((tool) => [tool.name, tool]))
/** The generator tools are not registered (they describe the registry) but follow the same contract. */
const everyTool: readonly AnyTool[] = [...tools, toolsManifest, toolsSkill, toolsExport]

describe('the tool registry', () => {
  it('names every tool once, in snake_case', () => {
    const names = tools.map((tool) => tool.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
  })

  it('describes every registered tool in the manifest, in registry order', () => {
    expect(manifest.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name))
  })
})

describe.each(everyTool.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
  const input = described.get(tool.name)?.input_schema ?? inputJsonSchema(tool)
  const output = described.get(tool.name)?.output_schema ?? outputJsonSchema(tool)
  const ajv = compiler()
  const validateInput = ajv.compile(input)
  const validateOutput = ajv.compile(output)

  it('has at least one example and a description a model can act on', () => {
    expect(tool.examples.length).toBeGreaterThanOrEqual(1)
    expect(tool.description.length).toBeGreaterThan(30)
  })

  it('exports strict JSON Schemas (draft 2020-12, every object closed with additionalProperties false)', () => {
    expect(input.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(input.type).toBe('object')
    expect(output.type).toBe('object')
    // A record (no named properties) states the schema of its values instead.
    const open = objectNodes(input).filter(({ node }) =>
      node.properties === undefined ? node.additionalProperties === undefined : node.additionalProperties !== false,
    )
    expect(open.map(({ at }) => at)).toEqual([])
  })

  it.each(tool.examples.map((example) => [example.title, example] as const))(
    'example "%s" is valid for both the zod and the exported JSON schemas',
    (_title, example) => {
      expect(validateInput(example.input), JSON.stringify(validateInput.errors)).toBe(true)
      expect(validateOutput(example.output), JSON.stringify(validateOutput.errors)).toBe(true)
      expect(tool.input.safeParse(example.input).success).toBe(true)
      expect(tool.output.safeParse(example.output).success).toBe(true)
    },
  )

  it('rejects an unknown property in the exported input schema', () => {
    const example = tool.examples[0]?.input as Record<string, unknown> | undefined
    expect(validateInput({ ...example, unexpected_field: true })).toBe(false)
  })
})
