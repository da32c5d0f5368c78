import { relative } from 'node:path'
import type { MemoryIdentity } from '../memory/locations.js'
import type { SearchIndex } from '../search/search-index.js'
import type { KnowledgeStatusLookup } from '../sync/stale.js'
import type { ToolContext } from './context.js'

/** The workspace index, opened once per process (the MCP server keeps it), with its notices shown as warnings. */
export function workspaceIndex(ctx: ToolContext): Promise<SearchIndex> {
  return ctx.resources.get(
    'search-index',
    async () => {
      const { openWorkspaceIndex } = await import('../stores/files/indexing/workspace-index.js')
      const index = await openWorkspaceIndex(ctx.workspace, ctx.warn)
      // Messages name the index by its place in the workspace, never by an absolute path under the user's home.
      for (const notice of index.notices) ctx.warn(notice.replaceAll(index.path, relative(ctx.workspace.root, index.path)))
      return index
    },
    (index) => index.close(),
  )
}

/** The status of each knowledge item by id, from the index once it has caught up with the knowledge files. */
export async function knowledgeStatusLookup(index: SearchIndex, ctx: ToolContext, identity: MemoryIdentity): Promise<KnowledgeStatusLookup> {
  const { ensureFresh } = await import('../stores/files/indexing/workspace-index.js')
  await ensureFresh(index, ctx.workspace, { identity, folders: [], memory: false, warn: ctx.warn })
  return (id) => {
    const [doc] = index.getMany([id])
    return doc?.kind === 'knowledge' ? doc.status : undefined
  }
}
