import { withoutDialect } from './json-schema.js'
import type { ManifestTool, ToolManifest } from './manifest-schema.js'

export const exportFormats = ['openai', 'anthropic', 'json-schema', 'langchain'] as const
export type ExportFormat = (typeof exportFormats)[number]

/*
 * OpenAI's `strict: true` needs every property required (optional ones as
 * `type: [x, "null"]`), which would change what mk accepts; so strict stays off
 * and mk validates every call itself.
 */
function openai(tool: ManifestTool): Record<string, unknown> {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: withoutDialect(tool.input_schema), strict: false } }
}

function anthropic(tool: ManifestTool): Record<string, unknown> {
  return { name: tool.name, description: tool.description, input_schema: withoutDialect(tool.input_schema) }
}

function jsonSchema(tool: ManifestTool): Record<string, unknown> {
  return { name: tool.name, title: tool.title, description: tool.description, input_schema: tool.input_schema, output_schema: tool.output_schema }
}

/*
 * The fields LangChain's tool() and DynamicStructuredTool take, besides the
 * function: `schema` may be a JSON Schema instead of a zod schema (LangChain.js
 * validates calls against it; Python's StructuredTool takes it as args_schema).
 * `tools.map((definition) => tool((input) => mk.call(definition.name, input), definition))`.
 */
function langchain(tool: ManifestTool): Record<string, unknown> {
  return { name: tool.name, description: tool.description, schema: withoutDialect(tool.input_schema) }
}

const renderers: Record<ExportFormat, (tool: ManifestTool) => Record<string, unknown>> = { openai, anthropic, 'json-schema': jsonSchema, langchain }

/** Tool definitions in the shape each API takes: paste `tools` into the request. */
export function exportFunctions(manifest: ToolManifest, format: ExportFormat): { tools: Record<string, unknown>[] } {
  return { tools: manifest.tools.map(renderers[format]) }
}

export function renderExport(manifest: ToolManifest, format: ExportFormat): string {
  return `${JSON.stringify(exportFunctions(manifest, format), null, 2)}\n`
}
