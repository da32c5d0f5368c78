import { z } from 'zod'
import type { PreToolUseEvent } from '../../hook/claude.js'
import { defineTool } from '../define.js'
import type { ToolContext } from '../context.js'
import { policyDenial } from './policy-gate.js'

const violationSchema = z.strictObject({
  constraintId: z.string(),
  knowledgeItemId: z.string(),
  file: z.string(),
  line: z.number().int(),
  subject: z.string(),
})

const outputSchema = z.strictObject({
  event: z.string().describe('hook_event_name of the input'),
  tool: z.string().optional().describe('The tool about to run (PreToolUse)'),
  decision: z.enum(['deny', 'context', 'none']).describe('deny: the tool call is refused; context: text is added for the model; none: no decision'),
  reason: z.string().optional(),
  rule_ids: z.array(z.string()).describe('The policy rules that denied the tool'),
  violations: z.array(violationSchema).optional().describe('What a refused file edit would add (PreToolUse on Write, Edit, MultiEdit, NotebookEdit)'),
  context_tokens: z.number().int().optional().describe('Tokens of the added context (o200k)'),
  hook_output: z.record(z.string(), z.unknown()).optional().describe('What the hook prints on stdout for Claude Code'),
})
type HookAnswer = z.output<typeof outputSchema>

/** Budgets of the context a hook adds: a prompt's directive block and a session's always-on rules. */
const promptBudget = 900
const sessionBudget = 600

const noDecision = (event: string, tool?: string): { output: HookAnswer } => ({
  output: { event, ...(tool === undefined ? {} : { tool }), decision: 'none', rule_ids: [] },
})

async function preToolUse(
  event: PreToolUseEvent,
  input: { context: Record<string, unknown>; agent_id?: string | undefined; team_id?: string | undefined },
  ctx: ToolContext,
) {
  const [{ preToolUseContext, denyDecision }, { checkEditCall }, { deniedEditReason }] = await Promise.all([
    import('../../hook/claude.js'),
    import('../../hook/edit-check.js'),
    import('../../hook/added-violations.js'),
  ])
  const context = preToolUseContext(event, input.context, { agentId: input.agent_id ?? ctx.runtime.agentId, teamId: input.team_id ?? ctx.runtime.teamId })
  const denial = await policyDenial(event.toolName, context, ctx)
  if (denial !== undefined) {
    const hookOutput = denyDecision(denial.reason)
    return {
      output: {
        event: 'PreToolUse',
        tool: event.toolName,
        decision: 'deny' as const,
        reason: denial.reason,
        rule_ids: denial.ruleIds,
        hook_output: hookOutput,
      },
    }
  }
  const edit = await checkEditCall(ctx.workspace, event.toolName, event.toolInput, event.cwd)
  if (edit === undefined || edit.added.length === 0) return noDecision('PreToolUse', event.toolName)
  const reason = deniedEditReason(edit.file, edit.added)
  const hookOutput = denyDecision(reason)
  const violations = edit.added.map((finding) => ({
    constraintId: finding.rule.constraint.id,
    knowledgeItemId: finding.rule.item.id,
    file: finding.file,
    line: finding.line,
    subject: finding.subject,
  }))
  return {
    output: { event: 'PreToolUse', tool: event.toolName, decision: 'deny' as const, reason, rule_ids: [], violations, hook_output: hookOutput },
  }
}

function contextAnswer(event: string, text: string, tokens: number): { output: HookAnswer } {
  if (text.trim() === '') return noDecision(event)
  const hookOutput = { hookSpecificOutput: { hookEventName: event, additionalContext: text } }
  return { output: { event, decision: 'context', rule_ids: [], context_tokens: tokens, hook_output: hookOutput } }
}

/** The directive block for the prompt (with the memories that matter), as rules_query_directives gives it. */
async function promptContext(prompt: string, ctx: ToolContext) {
  if (prompt.trim() === '') return noDecision('UserPromptSubmit')
  const { rulesQueryDirectives } = await import('../directives/directives.js')
  const query = rulesQueryDirectives.input.parse({ taskDescription: prompt.slice(0, 2000), options: { tokenBudget: promptBudget } })
  const { output } = await rulesQueryDirectives.run(query, ctx)
  return output.citations.length === 0 ? noDecision('UserPromptSubmit') : contextAnswer('UserPromptSubmit', output.context_block, output.tokens)
}

/** The MUST rules of every task, for the start of a session. */
async function sessionContext(ctx: ToolContext) {
  const [{ loadKnowledge }, { collectAccepted }, { sessionRulesBlock }, { loadTokenCounter }] = await Promise.all([
    import('../../knowledge/load.js'),
    import('../../directives/export/collect.js'),
    import('../../hook/session-rules.js'),
    import('../../token-count.js'),
  ])
  const base = await loadKnowledge(ctx.workspace)
  const appliesTo = new Map(base.items.map((item) => [item.id, item.appliesTo]))
  const countTokens = await ctx.resources.get('token-counter', loadTokenCounter)
  const rules = sessionRulesBlock(collectAccepted(base), appliesTo, countTokens, sessionBudget)
  return contextAnswer('SessionStart', rules.block, rules.tokens)
}

/**
 * Claude Code's hooks over mk: PreToolUse refuses tools the policy rules deny and file edits that add a
 * violation of an accepted constraint; UserPromptSubmit and SessionStart add the rules that apply. Not
 * in the registry: Claude Code calls it through `mk hook claude`, agents call the tools themselves.
 */
export const hookClaude = defineTool({
  name: 'hook_claude',
  title: 'Claude Code hook',
  description:
    "Answer a Claude Code hook input. PreToolUse: a tool the policy rules deny (as tools_select would) is refused with the rules' reasons; a Write, Edit, MultiEdit or NotebookEdit whose result adds a violation of an accepted constraint (one the file did not already have) is refused with the constraint, the decision and how to comply. UserPromptSubmit: the directive block for the prompt as additionalContext. SessionStart: the MUST rules that always apply. Otherwise no decision, so Claude Code's own permission rules apply.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    event: z.record(z.string(), z.unknown()).describe("Claude Code's hook input: hook_event_name, tool_name, tool_input, prompt, session_id, cwd, ..."),
    context: z.record(z.string(), z.unknown()).default({}).describe('More context for the rules (environment, ...)'),
    agent_id: z.string().min(1).optional(),
    team_id: z.string().min(1).optional().describe('The team for team-scoped rules (default: MK_TEAM_ID)'),
  }),
  output: outputSchema,
  examples: [
    {
      title: 'Bash in production',
      input: {
        event: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'kubectl delete pod api-1' } },
        context: { environment: 'production' },
      },
      output: {
        event: 'PreToolUse',
        tool: 'Bash',
        decision: 'deny',
        reason: 'mk policy rules: Bash: denied by no-shell-in-production (No shell commands against production)',
        rule_ids: ['no-shell-in-production'],
        hook_output: {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'mk policy rules: Bash: denied by no-shell-in-production (No shell commands against production)',
          },
        },
      },
    },
  ],
  async run(input, ctx) {
    const eventName = typeof input.event.hook_event_name === 'string' ? input.event.hook_event_name : 'PreToolUse'
    const { hasKnowledge } = await import('../../hook/edit-check.js')
    if (!hasKnowledge(ctx.workspace)) return noDecision(eventName)
    if (eventName === 'UserPromptSubmit' || eventName === 'SessionStart') {
      // Context is a help, never a gate: a broken index must not block the user's prompt.
      try {
        return await (eventName === 'SessionStart' ? sessionContext(ctx) : promptContext(typeof input.event.prompt === 'string' ? input.event.prompt : '', ctx))
      } catch (error) {
        ctx.warn(`mk hook claude: no rules added to ${eventName}: ${error instanceof Error ? error.message : String(error)}`)
        return noDecision(eventName)
      }
    }
    const { readPreToolUseEvent } = await import('../../hook/claude.js')
    const event = readPreToolUseEvent(input.event)
    if (event === undefined) return noDecision(eventName)
    return preToolUse(event, input, ctx)
  },
  /** What the hook prints on stdout for Claude Code: its hook output as JSON, nothing when mk has no decision. */
  render: (output) => (output.hook_output === undefined ? '' : JSON.stringify(output.hook_output)),
})
