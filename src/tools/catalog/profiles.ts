import type { AnyTool } from '../define.js'

export const mcpProfiles = ['main', 'worker'] as const
export type McpProfile = (typeof mcpProfiles)[number]

/**
 * Which tools exist for a client at all. A worker gets only read-only tools:
 * it cannot store, delete or sync, because those tools are never registered for it.
 */
export function toolsForProfile(tools: readonly AnyTool[], profile: McpProfile): AnyTool[] {
  return profile === 'worker' ? tools.filter((tool) => tool.tier === 'read_only') : [...tools]
}
