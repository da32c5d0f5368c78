import type { AnyTool } from './define.js'
import { doctorCheck } from './doctor/check.js'
import { knowledgeList } from './knowledge/list.js'
import { syncNow } from './sync/now.js'
import { syncStatusTool } from './sync/status.js'

/**
 * Every tool mk offers. The MCP server, the manifest, the skill document and the
 * function schemas are generated from this list; CLI commands import their tool directly.
 */
export const tools: readonly AnyTool[] = [
  knowledgeList,
  // sync
  syncNow,
  syncStatusTool,
  doctorCheck,
]
