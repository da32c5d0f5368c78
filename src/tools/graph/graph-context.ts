import type { GraphPlace } from '../../recall/knowledge-graph.js'
import type { ToolContext } from '../context.js'
import { identityOf } from '../memory/schemas.js'

/** Where the graph tools read and write: the caller's identity, team and agent come from the context. */
export function graphPlace(ctx: ToolContext): GraphPlace {
  return {
    workspace: ctx.workspace,
    store: ctx.store,
    identity: identityOf({}, ctx),
    teamId: ctx.runtime.teamId,
    agentId: ctx.runtime.agentId,
    author: ctx.runtime.author,
    warn: ctx.warn,
  }
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2)
}
