import type { SearchIndex } from '../search/search-index.js'
import type { ToolContext } from './context.js'

/** The workspace index, opened once per process (the MCP server keeps it), with its notices shown as warnings. */
export function workspaceIndex(ctx: ToolContext): Promise<SearchIndex> {
  return ctx.resources.get(
    'search-index',
    async () => {
      const { openWorkspaceIndex } = await import('../search/workspace-index.js')
      const index = await openWorkspaceIndex(ctx.workspace, ctx.warn)
      for (const notice of index.notices) ctx.warn(notice)
      return index
    },
    (index) => index.close(),
  )
}
