import { jsonSchemaDialect, withoutDialect, type JsonSchema } from './json-schema.js'
import type { ManifestTool } from './manifest-schema.js'

/** The path of a tool's schema file in llm-tooling/ (seed 004's `schemas/<tool>.schema.json`). */
export function toolSchemaFileName(toolName: string): string {
  return `schemas/${toolName}.schema.json`
}

function refersToDefinitions(schema: JsonSchema): boolean {
  return JSON.stringify(schema).includes('"$ref"')
}

/**
 * One tool's JSON Schema document, from the manifest: the document itself validates the tool's
 * input (what a caller sends), and `$defs.output` / `$defs.error` what it answers, so a client
 * validates arguments with the file and a result with `<file>#/$defs/output`.
 */
export function toolSchemaDocument(tool: ManifestTool): JsonSchema {
  const input = withoutDialect(tool.input_schema)
  const output = withoutDialect(tool.output_schema)
  const error = withoutDialect(tool.error_schema)
  // Nested under $defs, a `#/...` reference of the output or error schema would point elsewhere.
  if (refersToDefinitions(output) || refersToDefinitions(error)) {
    throw new Error(`${tool.name}: its output or error schema uses $ref; ${toolSchemaFileName(tool.name)} cannot nest it under $defs`)
  }
  const inputDefinitions = (input.$defs ?? {}) as JsonSchema
  if ('output' in inputDefinitions || 'error' in inputDefinitions) throw new Error(`${tool.name}: its input schema already defines $defs.output or $defs.error`)
  return {
    $schema: jsonSchemaDialect,
    ...input,
    title: `${tool.name} input`,
    description: `${tool.title}: what a call of ${tool.name} sends. $defs.output is what it answers, $defs.error what it answers on failure.`,
    $defs: { ...inputDefinitions, output, error },
  }
}

/** Every tool's schema file, by its path in llm-tooling/, with its exact text. */
export function toolSchemaFiles(tools: readonly ManifestTool[]): Record<string, string> {
  return Object.fromEntries(tools.map((tool) => [toolSchemaFileName(tool.name), `${JSON.stringify(toolSchemaDocument(tool), null, 2)}\n`]))
}
