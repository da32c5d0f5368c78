import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { exportFormats, exportFunctions } from '../../src/tools/generate/function-schemas.js'
import { llmToolingFiles, packagedManifest } from '../../scripts/llm-tooling-files.js'
import { manifestSchema } from '../../src/tools/generate/manifest-schema.js'
import { currentManifest } from '../../src/tools/catalog/registered.js'
import { tools } from '../../src/tools/registry.js'

const committedDirectory = fileURLToPath(new URL('../../llm-tooling/', import.meta.url))

describe('llm-tooling/', () => {
  it('matches what the registry generates, byte for byte (run `npm run llm-tooling` when this fails)', async () => {
    const files = llmToolingFiles(await packagedManifest(committedDirectory))
    for (const [name, text] of Object.entries(files)) {
      const committed = await readFile(`${committedDirectory}${name}`, 'utf8').catch(() => `(llm-tooling/${name} is missing)`)
      expect(committed, `llm-tooling/${name} is stale`).toBe(text)
    }
  })

  it('is generated identically twice', async () => {
    expect(llmToolingFiles(await currentManifest())).toEqual(llmToolingFiles(await currentManifest()))
  })
})

describe('the manifest', () => {
  it('is valid against its own schema', async () => {
    expect(manifestSchema.safeParse(await currentManifest()).success).toBe(true)
  })

  it('gives every tool an error schema naming every error code', async () => {
    for (const tool of (await currentManifest()).tools) {
      const errorCode = (tool.error_schema.properties as Record<string, { enum?: string[] }>).errorCode
      expect(errorCode?.enum).toContain('INVALID_INPUT')
      expect(errorCode?.enum).toContain('INTERNAL_ERROR')
    }
  })
})

describe('SKILL.md', () => {
  it('documents every tool with its risk and the three call forms', async () => {
    const skill = llmToolingFiles(await currentManifest())['SKILL.md'] ?? ''
    for (const tool of tools) {
      expect(skill).toContain(`### \`${tool.name}\``)
      expect(skill).toContain(`mk tools call ${tool.name} --input`)
      expect(skill).toContain(`"method":"tools/call","params":{"name":"${tool.name}"`)
    }
    for (const heading of ['## When to use it', '## Errors', '## Safety', '## Operational notes']) expect(skill).toContain(heading)
  })
})

describe('exported function schemas', () => {
  it.each(exportFormats)('%s lists every tool with a bare object schema for its parameters', async (format) => {
    const exported = exportFunctions(await currentManifest(), format)
    expect(exported.tools).toHaveLength(tools.length)
    const first = exported.tools[0] ?? {}
    const parameters = format === 'openai' ? (first.function as Record<string, unknown>).parameters : format === 'langchain' ? first.schema : first.input_schema
    expect((parameters as Record<string, unknown>).type).toBe('object')
    if (format !== 'json-schema') expect(parameters).not.toHaveProperty('$schema')
  })
})
