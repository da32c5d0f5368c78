import { z } from 'zod'
import { defineTool } from '../define.js'
import { policyDenial } from './policy-gate.js'

/**
 * Cursor's hooks over mk. Cursor lets a hook refuse shell commands and MCP calls, but not a file edit: it
 * reports the edit after it happened. Not in the registry: Cursor calls it through `mk hook cursor`.
 */
export const hookCursor = defineTool({
  name: 'hook_cursor',
  title: 'Cursor hook',
  description:
    'Answer a Cursor hook input. beforeShellExecution (the tool is named Shell) and beforeMCPExecution (the MCP tool name): refused with the reasons when the policy rules deny the tool. afterFileEdit: the edited file is checked against the accepted constraints and its violations reported on stderr (Cursor cannot undo an edit). Otherwise no decision.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    event: z.record(z.string(), z.unknown()).describe("Cursor's hook input: hook_event_name, command, tool_name, tool_input, file_path, workspace_roots, ..."),
    context: z.record(z.string(), z.unknown()).default({}).describe('More context for the rules (environment, ...)'),
    agent_id: z.string().min(1).optional(),
    team_id: z.string().min(1).optional(),
  }),
  output: z.strictObject({
    event: z.string(),
    decision: z.enum(['deny', 'report', 'none']),
    reason: z.string().optional(),
    rule_ids: z.array(z.string()),
    violations: z
      .array(z.strictObject({ constraintId: z.string(), knowledgeItemId: z.string(), file: z.string(), line: z.number().int(), message: z.string() }))
      .optional(),
    hook_output: z.record(z.string(), z.unknown()).describe('What the hook prints on stdout for Cursor'),
  }),
  examples: [
    {
      title: 'A shell command under a rule that denies the shell',
      input: { event: { hook_event_name: 'beforeShellExecution', command: 'kubectl delete pod api-1', cwd: '/repo' }, context: { environment: 'production' } },
      output: {
        event: 'beforeShellExecution',
        decision: 'deny',
        reason: 'mk policy rules: Shell: denied by no-shell-in-production (No shell commands against production)',
        rule_ids: ['no-shell-in-production'],
        hook_output: {
          permission: 'deny',
          user_message: 'mk policy rules: Shell: denied by no-shell-in-production (No shell commands against production)',
          agent_message: 'mk policy rules: Shell: denied by no-shell-in-production (No shell commands against production)',
        },
      },
    },
  ],
  async run(input, ctx) {
    const [{ readCursorEvent, cursorPolicyContext, editViolations }, { hasKnowledge, checkWrittenFile }] = await Promise.all([
      import('../../hook/cursor.js'),
      import('../../hook/edit-check.js'),
    ])
    const event = readCursorEvent(input.event)
    const none = { output: { event: event.name, decision: 'none' as const, rule_ids: [], hook_output: {} } }
    if (!hasKnowledge(ctx.workspace) || event.kind === 'none') return none
    if (event.kind === 'edit') {
      const { violations, warnings } = editViolations(await checkWrittenFile(ctx.workspace, event.path))
      if (violations.length === 0) return none
      for (const warning of warnings) ctx.warn(warning)
      return { output: { event: event.name, decision: 'report' as const, rule_ids: [], violations, hook_output: {} } }
    }
    const identity = { agentId: input.agent_id ?? ctx.runtime.agentId, teamId: input.team_id ?? ctx.runtime.teamId }
    const denial = await policyDenial(event.toolName, cursorPolicyContext(event, input.context, identity), ctx)
    if (denial === undefined) return none
    const hookOutput = { permission: 'deny', user_message: denial.reason, agent_message: denial.reason }
    return { output: { event: event.name, decision: 'deny' as const, reason: denial.reason, rule_ids: denial.ruleIds, hook_output: hookOutput } }
  },
  /** What the hook prints on stdout for Cursor: its hook output as JSON ({} for no decision). */
  render: (output) => JSON.stringify(output.hook_output),
})
