import { MkError } from '../errors.js'

/** What mk reads of Claude Code's PreToolUse hook input (JSON on stdin). */
export interface PreToolUseEvent {
  toolName: string
  toolInput: unknown
  sessionId: string | undefined
  cwd: string | undefined
  permissionMode: string | undefined
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/** The PreToolUse event in a hook input; undefined for any other event, which mk lets pass without a decision. */
export function readPreToolUseEvent(input: Record<string, unknown>): PreToolUseEvent | undefined {
  const event = input.hook_event_name
  if (event !== undefined && event !== 'PreToolUse') return undefined
  const toolName = text(input.tool_name)
  if (toolName === undefined) {
    throw new MkError('INVALID_INPUT', 'tool_name: a PreToolUse hook input names the tool about to run', {
      details: {
        field: 'tool_name',
        hint: 'configure mk hook claude as a PreToolUse hook; Claude Code sends {"hook_event_name":"PreToolUse","tool_name":...}',
      },
    })
  }
  return { toolName, toolInput: input.tool_input, sessionId: text(input.session_id), cwd: text(input.cwd), permissionMode: text(input.permission_mode) }
}

export interface HookIdentity {
  agentId: string | undefined
  teamId: string | undefined
}

/**
 * The context the rules see for a tool call: the caller's own context, then the tool about to run
 * (`tool.name`, `tool.input`) and the hook's facts (`hook.session_id`, ...), with the agent and team
 * from the environment or flags when given.
 */
export function preToolUseContext(event: PreToolUseEvent, extra: Record<string, unknown>, identity: HookIdentity): Record<string, unknown> {
  const agent = extra.agent !== null && typeof extra.agent === 'object' && !Array.isArray(extra.agent) ? (extra.agent as Record<string, unknown>) : {}
  return {
    ...extra,
    agent: {
      ...agent,
      ...(identity.agentId === undefined ? {} : { id: identity.agentId }),
      ...(identity.teamId === undefined ? {} : { team_id: identity.teamId }),
    },
    tool: { name: event.toolName, input: event.toolInput },
    hook: {
      event: 'PreToolUse',
      ...(event.sessionId === undefined ? {} : { session_id: event.sessionId }),
      ...(event.cwd === undefined ? {} : { cwd: event.cwd }),
      ...(event.permissionMode === undefined ? {} : { permission_mode: event.permissionMode }),
    },
  }
}

/** The hook output that refuses the tool call; the reason is shown to Claude. mk never answers allow: that would skip the user's own permission rules. */
export function denyDecision(reason: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }
}
