import type { DirectiveSet } from '../../directives/query.js'
import type { DocumentIndex } from '../../search/document-index.js'
import type { ToolContext } from '../context.js'

/** The prepared directives of the current knowledge, kept for the life of the process (the MCP server) until the knowledge changes. */
let cached: { key: string; set: DirectiveSet } | undefined

export async function directiveSet(index: DocumentIndex, ctx: ToolContext, statuses: readonly string[]): Promise<DirectiveSet> {
  const { loadDirectiveSet } = await import('../../directives/query.js')
  const settings = ctx.workspace.config.rules
  const key = JSON.stringify([ctx.workspace.stateDir, ctx.store.index.where(), await index.state('knowledge'), statuses, settings.topics, settings.layers])
  if (cached?.key !== key) cached = { key, set: await loadDirectiveSet(index, settings, statuses) }
  return cached.set
}
