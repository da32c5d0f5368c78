import type { AnyTool } from './define.js'
import { knowledgeList } from './knowledge/list.js'
// knowledge check (issue 3)
import { hookInstall } from './hook/install.js'
import { knowledgeCheck } from './knowledge/check.js'
import { knowledgeUpdateBaseline } from './knowledge/update-baseline.js'

/**
 * Every tool mk offers. The MCP server, the manifest, the skill document and the
 * function schemas are generated from this list; CLI commands import their tool directly.
 */
export const tools: readonly AnyTool[] = [
  knowledgeList,
  // knowledge check (issue 3)
  knowledgeCheck,
  knowledgeUpdateBaseline,
  hookInstall,
]
