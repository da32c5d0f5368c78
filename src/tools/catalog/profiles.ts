import type { AnyTool } from '../define.js'

export const mcpProfiles = ['core', 'main', 'worker'] as const
export type McpProfile = (typeof mcpProfiles)[number]

/**
 * The tools an agent needs on most tasks: the rules that apply, whether a change breaks a decision, the
 * knowledge and the memories, and tools_search, which finds and loads any other registered tool into
 * the session. About 4,300 tokens of tools/list (test/unit/tools/mcp-profiles.test.ts measures
 * it) instead of about 31,000 for every tool; the main profile offers every tool from the start.
 */
export const coreToolNames = [
  'rules_query_directives',
  'knowledge_check',
  'knowledge_query',
  'knowledge_show',
  'knowledge_list',
  'memory_search',
  'memory_recall',
  'memory_add',
  'memory_show',
  'tools_search',
] as const

/**
 * Which tools exist for a client at all. A worker gets only read-only tools:
 * it cannot store, delete or sync, because those tools are never registered for it.
 * core gets the core tools only.
 */
export function toolsForProfile(tools: readonly AnyTool[], profile: McpProfile): AnyTool[] {
  if (profile === 'worker') return tools.filter((tool) => tool.tier === 'read_only')
  if (profile === 'core') return tools.filter((tool) => (coreToolNames as readonly string[]).includes(tool.name))
  return [...tools]
}

/**
 * Whether tools/list carries each tool's output schema. The core profile leaves them out, which halves
 * what a client reads before its first call; every result still carries its structured content.
 */
export function listsOutputSchemas(profile: McpProfile): boolean {
  return profile !== 'core'
}
