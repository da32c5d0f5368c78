import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { renderOpenApi } from '../src/hosts/http/openapi.js'
import { currentManifest, registeredTools } from '../src/tools/catalog/registered.js'
import { generatedFiles } from '../src/tools/generate/files.js'
import type { ToolManifest } from '../src/tools/generate/manifest-schema.js'
import { applyOverrides, parseOverride, type ToolOverride } from '../src/tools/generate/overrides.js'

/** Every generated file of `llm-tooling/`, by name, with its exact text: the tool layer's, and the HTTP host's OpenAPI document. */
export function llmToolingFiles(manifest: ToolManifest): Record<string, string> {
  return { ...generatedFiles(manifest), 'openapi.json': renderOpenApi(manifest) }
}

/** The override files of `<directory>/overrides/`, by file name (none when the folder is absent). */
export async function readOverrides(directory: string): Promise<Map<string, ToolOverride>> {
  const folder = join(directory, 'overrides')
  const names = await readdir(folder).catch(() => [] as string[])
  const overrides = new Map<string, ToolOverride>()
  for (const name of names.filter((file) => file.endsWith('.json')).sort()) overrides.set(name, parseOverride(name, await readFile(join(folder, name), 'utf8')))
  return overrides
}

/** The manifest llm-tooling/ is generated from: the registry's, with the committed override files applied. */
export async function packagedManifest(directory: string): Promise<ToolManifest> {
  return applyOverrides(await currentManifest(), await readOverrides(directory), await registeredTools())
}
