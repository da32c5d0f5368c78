import { Ajv2019 } from 'ajv/dist/2019.js'
import formatsPlugin from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { exportFunctions } from '../../src/tools/generate/function-schemas.js'
import { withoutDialect } from '../../src/tools/generate/json-schema.js'
import { currentManifest } from '../../src/tools/catalog/registered.js'
import { tools } from '../../src/tools/registry.js'

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = formatsPlugin as unknown as (ajv: Ajv2019) => Ajv2019

const manifest = await currentManifest()
const exported = exportFunctions(manifest, 'langchain').tools

/*
 * LangChain.js's tool() and DynamicStructuredTool take { name, description, schema }
 * besides the function, and validate each call against a JSON Schema `schema` with a
 * draft 2019-09 validator: each definition must compile under 2019-09 and accept
 * exactly what mk accepts.
 */
describe('mk tools export --format langchain', () => {
  it('gives each registered tool as exactly { name, description, schema }, with its input schema without the dialect', () => {
    expect(exported.map((definition) => definition.name)).toEqual(tools.map((tool) => tool.name))
    for (const [index, definition] of exported.entries()) {
      const described = manifest.tools[index]
      expect(Object.keys(definition)).toEqual(['name', 'description', 'schema'])
      expect(definition).toEqual({ name: described?.name, description: described?.description, schema: withoutDialect(described?.input_schema ?? {}) })
      expect(definition.schema).toMatchObject({ type: 'object' })
    }
  })

  it('validates under draft 2019-09: every example input passes, an unknown field does not', () => {
    const ajv = addFormats(new Ajv2019({ strict: false, allErrors: true }))
    for (const tool of tools) {
      const definition = exported.find((candidate) => candidate.name === tool.name)
      const validate = ajv.compile(definition?.schema as object)
      for (const example of tool.examples) expect(validate(example.input), `${tool.name}: ${example.title} ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(validate({ ...(tool.examples[0]?.input as object), not_an_mk_field: 1 }), tool.name).toBe(false)
    }
  })
})
