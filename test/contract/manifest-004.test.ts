import { readFile, readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formatsPlugin from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { llmToolingFiles, packagedManifest } from '../../scripts/llm-tooling-files.js'
import { tools } from '../../src/tools/registry.js'

/*
 * Seed 004's manifest items, read from the committed llm-tooling/: the manifest as the seed's
 * conceptual schema spells it, per-tool rate_limit and allowed_paths, and one JSON Schema file
 * per tool (schemas/<tool>.schema.json) that a real validator (ajv, draft 2020-12) compiles and
 * that accepts the tool's examples and refuses what the tool refuses.
 */

const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020
const directory = fileURLToPath(new URL('../../llm-tooling/', import.meta.url))
const committed = JSON.parse(await readFile(`${directory}tool.manifest.json`, 'utf8')) as {
  tools: { name: string; examples: { input: unknown; output: unknown }[]; constraints: Record<string, unknown> }[]
}

/** Seed 004's "Tool Manifest Schema (conceptual)", written down as JSON Schema: its enums exactly as the seed spells them. */
const seedManifestSchema = {
  type: 'object',
  required: ['manifest_version', 'project', 'tools'],
  properties: {
    manifest_version: { const: '1.0' },
    project: {
      type: 'object',
      required: ['name', 'version', 'runtime', 'execution_model', 'entrypoint', 'description'],
      properties: {
        name: { type: 'string' },
        version: { type: 'string' },
        runtime: { enum: ['node', 'python', 'go', 'rust', 'other'] },
        execution_model: { enum: ['in-process', 'subprocess', 'remote-http'] },
        entrypoint: { type: 'string' },
        description: { type: 'string' },
      },
    },
    tools: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: [
          'name',
          'title',
          'description',
          'risk',
          'idempotency',
          'timeout_ms',
          'input_schema',
          'output_schema',
          'error_schema',
          'examples',
          'constraints',
        ],
        properties: {
          name: { type: 'string', pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$' },
          title: { type: 'string' },
          description: { type: 'string' },
          risk: { enum: ['low', 'medium', 'high'] },
          idempotency: { enum: ['idempotent', 'non-idempotent', 'unknown'] },
          timeout_ms: { type: 'integer', minimum: 1 },
          input_schema: { type: 'object', required: ['type', 'properties'], properties: { type: { const: 'object' }, properties: { type: 'object' } } },
          output_schema: { type: 'object', required: ['type', 'properties'], properties: { type: { const: 'object' }, properties: { type: 'object' } } },
          error_schema: { type: 'object' },
          examples: { type: 'array', minItems: 1, items: { type: 'object', required: ['input', 'output'] } },
          constraints: {
            type: 'object',
            required: ['read_only_mode_supported', 'side_effects', 'rate_limit', 'allowed_paths', 'notes'],
            properties: {
              read_only_mode_supported: { type: 'boolean' },
              side_effects: { type: 'array', items: { type: 'string' } },
              rate_limit: {
                type: 'object',
                required: ['requests_per_minute'],
                properties: { requests_per_minute: { type: 'integer', minimum: 1 } },
              },
              allowed_paths: { type: 'array', minItems: 1, items: { type: 'string' } },
              notes: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
  },
}

describe("seed 004's tool manifest", () => {
  it("validates against the seed's manifest schema, enums spelled as the seed writes them", () => {
    const validate = new Ajv2020({ strict: true, strictRequired: false, allErrors: true }).compile(seedManifestSchema)
    const valid = validate(committed)
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5))).toEqual([])
    expect(valid).toBe(true)
  })

  it('gives every tool a rate limit and the folders it may reach', () => {
    for (const tool of committed.tools) {
      expect(tool.constraints.rate_limit, tool.name).toEqual({ requests_per_minute: expect.any(Number) as number })
      expect(tool.constraints.allowed_paths, tool.name).toContain('<workspace>/**')
    }
    const byName = new Map(committed.tools.map((tool) => [tool.name, tool.constraints]))
    // The tools that take paths from their caller are confined as the path guard confines them.
    expect(byName.get('rules_export_write')?.allowed_paths).toEqual(['<workspace>/**'])
    expect(byName.get('knowledge_check')?.allowed_paths).toEqual(['<workspace>/**'])
    expect(byName.get('site_build')?.allowed_paths).toEqual(['<workspace>/**', '<MK_HOME>/**'])
    expect(byName.get('memory_search')?.rate_limit).toEqual({ requests_per_minute: 600 })
    expect(byName.get('sync_now')?.rate_limit).toEqual({ requests_per_minute: 30 })
  })
})

describe('schemas/<tool>.schema.json', () => {
  it('exists for every registered tool and for no other', async () => {
    const names = (await readdir(`${directory}schemas`)).sort()
    expect(names).toEqual(tools.map((tool) => `${tool.name}.schema.json`).sort())
  })

  it('is what the registry and the overrides generate', async () => {
    const files = llmToolingFiles(await packagedManifest(directory))
    for (const tool of tools) {
      const name = `schemas/${tool.name}.schema.json`
      expect(await readFile(`${directory}${name}`, 'utf8'), name).toBe(files[name])
    }
  })

  describe.each(committed.tools.map((tool) => [tool.name, tool] as const))('%s', (name, tool) => {
    it('compiles under a real validator and accepts every example, refusing an unknown field', async () => {
      const document = JSON.parse(await readFile(`${directory}schemas/${name}.schema.json`, 'utf8')) as Record<string, unknown>
      expect(document.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
      const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
      ajv.addSchema(document, name)
      const validateInput = ajv.getSchema(name)
      const validateOutput = ajv.getSchema(`${name}#/$defs/output`)
      const validateError = ajv.getSchema(`${name}#/$defs/error`)
      if (validateInput === undefined || validateOutput === undefined || validateError === undefined) throw new Error(`${name}: schema parts not found`)
      for (const example of tool.examples) {
        expect(validateInput(example.input), JSON.stringify(validateInput.errors)).toBe(true)
        expect(validateOutput(example.output), JSON.stringify(validateOutput.errors)).toBe(true)
      }
      expect(validateInput({ ...(tool.examples[0]?.input as object), not_a_field_of_any_tool: 1 })).toBe(false)
      expect(validateError({ success: false, errorCode: 'INVALID_INPUT', message: 'bad', retryable: false })).toBe(true)
      expect(validateError({ success: false, errorCode: 'NOT_A_CODE', message: 'bad', retryable: false })).toBe(false)
    })
  })
})
