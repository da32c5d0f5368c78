import { z } from 'zod'
import { defineTool } from '../define.js'
import { evaluateForContext } from '../policy-rules/policy-set.js'

/**
 * Claude Code's PreToolUse hook over tools_select: the tool about to run is the one candidate, and
 * it is refused when the policy rules deny it. Not in the registry: Claude Code calls it through
 * `mk hook claude`, agents call tools_select.
 */
export const hookClaude = defineTool({
  name: 'hook_claude',
  title: 'Claude Code PreToolUse hook',
  description:
    "Decide a Claude Code PreToolUse hook input by the policy rules: the tool about to run is denied (with the rules' reasons) when tools_select would not allow it; otherwise no decision, so Claude Code's own permission rules apply.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    event: z.record(z.string(), z.unknown()).describe("Claude Code's hook input: hook_event_name, tool_name, tool_input, session_id, cwd, ..."),
    context: z.record(z.string(), z.unknown()).default({}).describe('More context for the rules (environment, ...)'),
    agent_id: z.string().min(1).optional(),
    team_id: z.string().min(1).optional().describe('The team for team-scoped rules (default: MK_TEAM_ID)'),
  }),
  output: z.strictObject({
    tool: z.string().optional().describe('The tool about to run; absent for events other than PreToolUse'),
    decision: z.enum(['deny', 'none']),
    reason: z.string().optional(),
    rule_ids: z.array(z.string()).describe('The rules that denied it'),
    hook_output: z.record(z.string(), z.unknown()).optional().describe('What the hook prints on stdout for Claude Code'),
  }),
  examples: [
    {
      title: 'Bash in production',
      input: {
        event: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'kubectl delete pod api-1' } },
        context: { environment: 'production' },
      },
      output: {
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
    const [{ readPreToolUseEvent, preToolUseContext, denyDecision }, { selectTools }] = await Promise.all([
      import('../../hook/claude.js'),
      import('../../policy-rules/select.js'),
    ])
    const event = readPreToolUseEvent(input.event)
    if (event === undefined) return { output: { decision: 'none' as const, rule_ids: [] }, display: '' }
    const context = preToolUseContext(event, input.context, { agentId: input.agent_id ?? ctx.runtime.agentId, teamId: input.team_id ?? ctx.runtime.teamId })
    const evaluation = await evaluateForContext(ctx, context)
    const selection = selectTools([event.toolName], evaluation.merged.tools, true)
    if (selection.selected !== undefined) return { output: { tool: event.toolName, decision: 'none' as const, rule_ids: [] }, display: '' }
    const ruleIds = selection.deniedBy.get(event.toolName) ?? []
    const summaries = new Map(evaluation.active.map(({ rule }) => [rule.id, rule.summary]))
    const why = ruleIds.map((id) => `${id} (${summaries.get(id) ?? 'no summary'})`).join(', ')
    const reason = `mk policy rules: ${event.toolName}: ${evaluation.merged.tools.deniedBy.has(event.toolName) ? 'denied by' : 'not in the allow list of'} ${why}`
    const hookOutput = denyDecision(reason)
    return {
      output: { tool: event.toolName, decision: 'deny' as const, reason, rule_ids: ruleIds, hook_output: hookOutput },
      display: JSON.stringify(hookOutput),
    }
  },
})
