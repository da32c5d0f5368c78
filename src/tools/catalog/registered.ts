import { MkError } from '../../errors.js'
import type { AnyTool } from '../define.js'
import type { ToolManifest } from '../generate/manifest-schema.js'
import { registeredManifest } from './tool-list.js'

/** The registry, loaded on demand so commands that never need every tool do not load them. */
export async function registeredTools(): Promise<readonly AnyTool[]> {
  return (await import('../registry.js')).tools
}

export async function findRegisteredTool(name: string): Promise<AnyTool> {
  const tools = await registeredTools()
  const tool = tools.find((candidate) => candidate.name === name)
  if (tool === undefined) {
    throw new MkError('NOT_FOUND', `no tool named "${name}"`, {
      details: { tool: name, hint: `known tools: ${tools.map((known) => known.name).join(', ')}` },
    })
  }
  return tool
}

/** The manifest of the registered tools, loading the registry first (the scripts that write the generated documents). */
export async function currentManifest(): Promise<ToolManifest> {
  await registeredTools()
  return registeredManifest()
}
