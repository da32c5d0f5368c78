import { exportFormats, renderExport, type ExportFormat } from './function-schemas.js'
import { renderManifest } from './manifest.js'
import { renderOpenApi } from './openapi.js'
import type { ToolManifest } from './manifest-schema.js'
import { renderSkill } from './skill.js'

const exportFileNames: Record<ExportFormat, string> = {
  openai: 'openai.tools.json',
  anthropic: 'anthropic.tools.json',
  'json-schema': 'tools.schema.json',
  langchain: 'langchain.tools.json',
}

/** Every generated file of `llm-tooling/`, by name, with its exact text. */
export function generatedFiles(manifest: ToolManifest): Record<string, string> {
  return {
    'tool.manifest.json': renderManifest(manifest),
    'SKILL.md': renderSkill(manifest),
    'openapi.json': renderOpenApi(manifest),
    ...Object.fromEntries(exportFormats.map((format) => [exportFileNames[format], renderExport(manifest, format)])),
  }
}
