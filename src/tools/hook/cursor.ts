import { z } from 'zod'
import { defineTool } from '../define.js'
import { policyDenial } from './policy-gate.js'

/** The tool name policy rules see for Cursor's terminal: deny [Shell] (or [Bash, Shell]) to refuse it. */
export const cursorShellTool = 'Shell'

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

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
    const eventName = text(input.event.hook_event_name) ?? ''
    const none = { output: { event: eventName, decision: 'none' as const, rule_ids: [], hook_output: {} }, display: '{}' }
    const { hasKnowledge } = await import('../../hook/edit-check.js')
    if (!hasKnowledge(ctx.workspace)) return none
    if (eventName === 'afterFileEdit') {
      const path = text(input.event.file_path)
      if (path === undefined) return none
      const { checkWrittenFile } = await import('../../hook/edit-check.js')
      const findings = await checkWrittenFile(ctx.workspace, path)
      if (findings.length === 0) return none
      const violations = findings.map((finding) => ({
        constraintId: finding.rule.constraint.id,
        knowledgeItemId: finding.rule.item.id,
        file: finding.file,
        line: finding.line,
        message: finding.message,
      }))
      for (const violation of violations)
        ctx.warn(`mk: ${violation.file}:${violation.line} breaks ${violation.constraintId} (${violation.knowledgeItemId}): ${violation.message}`)
      return { output: { event: eventName, decision: 'report' as const, rule_ids: [], violations, hook_output: {} }, display: '{}' }
    }
    const toolName = eventName === 'beforeShellExecution' ? cursorShellTool : eventName === 'beforeMCPExecution' ? text(input.event.tool_name) : undefined
    if (toolName === undefined) return none
    const agentId = input.agent_id ?? ctx.runtime.agentId
    const teamId = input.team_id ?? ctx.runtime.teamId
    const agent = { ...(agentId === undefined ? {} : { id: agentId }), ...(teamId === undefined ? {} : { team_id: teamId }) }
    const sessionId = text(input.event.conversation_id)
    const toolInput = eventName === 'beforeShellExecution' ? { command: input.event.command } : input.event.tool_input
    const context = {
      ...input.context,
      agent,
      tool: { name: toolName, input: toolInput },
      hook: { event: eventName, ...(sessionId === undefined ? {} : { session_id: sessionId }) },
    }
    const denial = await policyDenial(toolName, context, ctx)
    if (denial === undefined) return none
    const hookOutput = { permission: 'deny', user_message: denial.reason, agent_message: denial.reason }
    return {
      output: { event: eventName, decision: 'deny' as const, reason: denial.reason, rule_ids: denial.ruleIds, hook_output: hookOutput },
      display: JSON.stringify(hookOutput),
    }
  },
})
