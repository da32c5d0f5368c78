import type { AnyTool } from '../define.js'

let registered: readonly AnyTool[] = []

/**
 * Every registered tool, for the tool that finds the others (tools_search). The registry hands
 * its list over as it loads, rather than the tool importing the registry it is part of (an
 * import cycle); every host calls a tool through the registry, so it is filled by then.
 */
export function registeredToolList(): readonly AnyTool[] {
  return registered
}

export function handOverToolList(tools: readonly AnyTool[]): void {
  registered = tools
}
