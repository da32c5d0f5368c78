import type { Finding } from '../constraints/model.js'
import type { HookIdentity } from './claude.js'

/** The tool name policy rules see for Cursor's terminal: deny [Shell] (or [Bash, Shell]) to refuse it. */
export const cursorShellTool = 'Shell'

/** What mk does with a Cursor hook input: check an edited file, ask the policy rules about a tool, or nothing. */
export type CursorEvent =
  | { kind: 'edit'; name: string; path: string }
  | { kind: 'tool'; name: string; toolName: string; toolInput: unknown; sessionId: string | undefined }
  | { kind: 'none'; name: string }

export interface CursorViolation {
  constraintId: string
  knowledgeItemId: string
  file: string
  line: number
  message: string
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/** beforeShellExecution asks about the Shell tool, beforeMCPExecution about the MCP tool, afterFileEdit names the edited file. */
export function readCursorEvent(event: Record<string, unknown>): CursorEvent {
  const name = text(event.hook_event_name) ?? ''
  if (name === 'afterFileEdit') {
    const path = text(event.file_path)
    return path === undefined ? { kind: 'none', name } : { kind: 'edit', name, path }
  }
  const toolName = name === 'beforeShellExecution' ? cursorShellTool : name === 'beforeMCPExecution' ? text(event.tool_name) : undefined
  if (toolName === undefined) return { kind: 'none', name }
  const toolInput = name === 'beforeShellExecution' ? { command: event.command } : event.tool_input
  return { kind: 'tool', name, toolName, toolInput, sessionId: text(event.conversation_id) }
}

/** The context the rules see for a Cursor tool call: the caller's context, the agent and team, the tool and the hook's facts. */
export function cursorPolicyContext(
  event: Extract<CursorEvent, { kind: 'tool' }>,
  extra: Record<string, unknown>,
  identity: HookIdentity,
): Record<string, unknown> {
  const agent = { ...(identity.agentId === undefined ? {} : { id: identity.agentId }), ...(identity.teamId === undefined ? {} : { team_id: identity.teamId }) }
  return {
    ...extra,
    agent,
    tool: { name: event.toolName, input: event.toolInput },
    hook: { event: event.name, ...(event.sessionId === undefined ? {} : { session_id: event.sessionId }) },
  }
}

/** The violations an edited file's findings report, and the line each is warned with (Cursor cannot undo the edit). */
export function editViolations(findings: readonly Finding[]): { violations: CursorViolation[]; warnings: string[] } {
  const violations = findings.map((finding) => ({
    constraintId: finding.rule.constraint.id,
    knowledgeItemId: finding.rule.item.id,
    file: finding.file,
    line: finding.line,
    message: finding.message,
  }))
  const warnings = violations.map(
    (violation) => `mk: ${violation.file}:${violation.line} breaks ${violation.constraintId} (${violation.knowledgeItemId}): ${violation.message}`,
  )
  return { violations, warnings }
}
