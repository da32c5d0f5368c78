import { exportFormats, renderExport, type ExportFormat } from './function-schemas.js'
import { renderManifest } from './manifest.js'
import type { ToolManifest } from './manifest-schema.js'
import { renderSkill } from './skill.js'
import { toolSchemaFiles } from './tool-schema-file.js'

const exportFileNames: Record<ExportFormat, string> = {
  openai: 'openai.tools.json',
  anthropic: 'anthropic.tools.json',
  'json-schema': 'tools.schema.json',
  langchain: 'langchain.tools.json',
}

/** The files of `llm-tooling/` the tool layer renders, by name, with their exact text (openapi.json is the HTTP host's); a name may have a folder (`schemas/<tool>.schema.json`). */
export function generatedFiles(manifest: ToolManifest): Record<string, string> {
  return {
    'tool.manifest.json': renderManifest(manifest),
    'SKILL.md': renderSkill(manifest),
    ...Object.fromEntries(exportFormats.map((format) => [exportFileNames[format], renderExport(manifest, format)])),
    ...toolSchemaFiles(manifest.tools),
  }
}
