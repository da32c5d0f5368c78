import { renderOpenApi } from '../src/hosts/http/openapi.js'
import { generatedFiles } from '../src/tools/generate/files.js'
import type { ToolManifest } from '../src/tools/generate/manifest-schema.js'

/** Every generated file of `llm-tooling/`, by name, with its exact text: the tool layer's, and the HTTP host's OpenAPI document. */
export function llmToolingFiles(manifest: ToolManifest): Record<string, string> {
  return { ...generatedFiles(manifest), 'openapi.json': renderOpenApi(manifest) }
}
