import { z } from 'zod'
import { defineTool } from '../define.js'
import { registeredManifest } from './tool-list.js'
import { exportFormats } from '../generate/function-schemas.js'

export const toolsExport = defineTool({
  name: 'tools_export',
  title: 'Export function schemas',
  description:
    'Print every mk tool as a function definition for a model API: openai (Chat Completions `tools`), anthropic (Messages `tools`), json-schema (name, description, input and output JSON Schemas) or langchain (name, description and a JSON Schema `schema`, as the LangChain tool() function and DynamicStructuredTool take).',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    format: z.enum(exportFormats).describe('Which API shape to print'),
  }),
  output: z.strictObject({
    tools: z.array(z.record(z.string(), z.unknown())),
  }),
  examples: [
    {
      title: 'Anthropic tool definitions',
      input: { format: 'anthropic' },
      output: {
        tools: [
          {
            name: 'knowledge_list',
            description: 'List every knowledge item of every configured source.',
            input_schema: { type: 'object', properties: {}, additionalProperties: false },
          },
        ],
      },
    },
  ],
  async run(input) {
    const { exportFunctions, renderExport } = await import('../generate/function-schemas.js')
    const manifest = await registeredManifest()
    return { output: exportFunctions(manifest, input.format), display: renderExport(manifest, input.format) }
  },
})
