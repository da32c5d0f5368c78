import { MkError } from '../errors.js'
import type { ToolContext } from './context.js'

/**
 * Ask a person before an elevated action. The CLI asks on a terminal (or takes
 * `--yes`); the MCP server asks through elicitation; elsewhere the call is refused.
 */
export async function requireApproval(ctx: Pick<ToolContext, 'approve'>, toolName: string, question: string): Promise<void> {
  if (ctx.approve === undefined) {
    throw new MkError('FORBIDDEN', `${toolName} needs a person's approval and none can be asked here`, {
      details: { tool: toolName, hint: 'run it from a terminal, or pass --yes' },
    })
  }
  if (!(await ctx.approve(question))) throw new MkError('FORBIDDEN', `${toolName} was not approved`, { details: { tool: toolName } })
}
