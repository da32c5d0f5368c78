import type { PolicyRule } from '../knowledge/policy-rule/model.js'

/** Who is asking, as the context names them: `agent.id` or `agent_id`, `agent.team_id` or `team_id`. */
export interface Caller {
  agentId: string | undefined
  teamId: string | undefined
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number') return String(value)
  return undefined
}

function fieldOf(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined
}

export function callerOf(context: Record<string, unknown>): Caller {
  const agent = context.agent
  return {
    agentId: idOf(fieldOf(agent, 'id')) ?? idOf(context.agent_id),
    teamId: idOf(fieldOf(agent, 'team_id')) ?? idOf(context.team_id),
  }
}

/** A global rule applies to everyone; a team or agent rule only when the context names its target. */
export function inScope(rule: PolicyRule, caller: Caller): boolean {
  if (rule.scope === 'team') return caller.teamId !== undefined && rule.targetTeamId === caller.teamId
  if (rule.scope === 'agent') return caller.agentId !== undefined && rule.targetAgentId === caller.agentId
  return true
}

export interface LaneFilter {
  applied: boolean
  reason: 'agent_and_team_context' | 'agent_context' | 'team_context' | 'missing_agent_context'
}

/** Private rules are filtered by owner only when the context says who is asking; otherwise that is reported, not guessed. */
export function laneFilter(caller: Caller): LaneFilter {
  if (caller.agentId !== undefined && caller.teamId !== undefined) return { applied: true, reason: 'agent_and_team_context' }
  if (caller.agentId !== undefined) return { applied: true, reason: 'agent_context' }
  if (caller.teamId !== undefined) return { applied: true, reason: 'team_context' }
  return { applied: false, reason: 'missing_agent_context' }
}

/** A shared rule is visible to all; a private one to its owning agent or team. */
export function laneVisible(rule: PolicyRule, caller: Caller): boolean {
  if (rule.lane === 'shared') return true
  return (rule.ownerAgentId !== undefined && rule.ownerAgentId === caller.agentId) || (rule.ownerTeamId !== undefined && rule.ownerTeamId === caller.teamId)
}
