import type { AnyTool } from '../define.js'
import type { ToolManifest } from '../generate/manifest-schema.js'

let registered: readonly AnyTool[] = []

/**
 * Every registered tool, for the tools that describe the others (tools_search, tools_manifest, ...). The registry hands
 * its list over as it loads, rather than the tool importing the registry it is part of (an
 * import cycle); every host calls a tool through the registry, so it is filled by then.
 */
export function registeredToolList(): readonly AnyTool[] {
  return registered
}

export function handOverToolList(tools: readonly AnyTool[]): void {
  registered = tools
}

/** The manifest of the registered tools, the one source of every generated document (tools_manifest, tools_export, tools_skill). */
export async function registeredManifest(): Promise<ToolManifest> {
  const [{ buildManifest }, { readPackageInfo }] = await Promise.all([import('../generate/manifest.js'), import('../generate/project.js')])
  return buildManifest(registered, await readPackageInfo())
}
