import { MkError } from '../errors.js'
import type { ToolContext } from './context.js'

/**
 * Ask a person before an elevated action. The CLI asks on a terminal (or takes
 * `--yes`); the MCP server asks through elicitation; elsewhere the call is refused.
 */
export async function requireApproval(ctx: Pick<ToolContext, 'approve'>, toolName: string, question: string, what = toolName): Promise<void> {
  if (ctx.approve === undefined) {
    throw new MkError(
      'FORBIDDEN',
      `${what} needs a person's approval and nobody can be asked here (no terminal, no --yes, or an MCP client without elicitation)`,
      {
        details: {
          tool: toolName,
          hint: 'run the same mk command in a terminal and answer the prompt, or add --yes to approve it; through MCP, use a client that supports elicitation',
        },
      },
    )
  }
  if (!(await ctx.approve(question))) throw new MkError('FORBIDDEN', `${what} was not approved`, { details: { tool: toolName } })
}
