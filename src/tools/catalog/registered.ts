import { MkError } from '../../errors.js'
import type { AnyTool } from '../define.js'
import type { ToolManifest } from '../generate/manifest-schema.js'

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

/** The manifest of the registered tools, the one source of every generated document. */
export async function currentManifest(): Promise<ToolManifest> {
  const { buildManifest } = await import('../generate/manifest.js')
  const { readPackageInfo } = await import('../generate/project.js')
  return buildManifest(await registeredTools(), await readPackageInfo())
}
