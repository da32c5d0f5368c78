import { z } from 'zod'

/*
 * The rule DTOs seed 002 lists, shared by rules/evaluate, tools/select and recall's rules: mk's
 * rules_evaluate output (rule_id, if, then, skipped rules as a list) in the contract's names.
 */

const laneReasons = ['missing_agent_context', 'enforced_agent_only', 'enforced_team_only', 'enforced_agent_team'] as const
const laneReasonOf: Record<string, (typeof laneReasons)[number]> = {
  missing_agent_context: 'missing_agent_context',
  agent_context: 'enforced_agent_only',
  team_context: 'enforced_team_only',
  agent_and_team_context: 'enforced_agent_team',
}

/** How many skipped rules' samples an answer carries. */
const invalidThenSampleSize = 5
/** How many lines tool_conflicts_summary carries: short, for a UI or a log. */
const toolConflictsSummarySize = 10

export const ruleMatchDto = z.object({
  rule_node_id: z.string(),
  state: z.enum(['active', 'shadow']),
  summary: z.string(),
  rule_scope: z.string(),
  target_agent_id: z.string().optional(),
  target_team_id: z.string().optional(),
  if_json: z.unknown().describe('The JSON Logic condition; null when the rule always applies'),
  then_json: z.record(z.string(), z.unknown()).describe('The policy patch'),
  exceptions_json: z.array(z.unknown()),
  stats: z.object({ positive: z.number(), negative: z.number() }),
  rank: z.object({ score: z.number(), evidence_score: z.number(), priority: z.number(), weight: z.number(), specificity: z.number() }),
  match_detail: z.object({ condition_paths: z.array(z.string()), condition_path_count: z.number() }),
  commit_id: z.string().nullable().describe('The commit of the repository holding the rule file'),
})

export const visibilityDto = z.object({
  agent: z.object({ id: z.string().nullable(), team_id: z.string().nullable() }),
  rule_scope: z.object({
    scanned: z.number(),
    filtered_by_scope: z.number(),
    filtered_by_lane: z.number(),
    filtered_by_condition: z.number(),
    skipped_invalid_then: z.number(),
    matched_active: z.number(),
    matched_shadow: z.number(),
  }),
  lane: z.object({
    applied: z.boolean(),
    reason: z.enum(laneReasons),
    legacy_unowned_private_visible: z.boolean(),
    legacy_unowned_private_detected: z.number(),
  }),
})

const conflictDto = z.object({ path: z.string(), winner: z.string(), loser: z.string(), winner_value: z.unknown(), loser_value: z.unknown() })

/** Seed 002's `applied`; the shadow_* fields only when shadow rules were asked for (include_shadow). mk's shadow_conflict_explain is not in the contract's list, so it stays out. */
export const appliedDto = z.object({
  policy: z.record(z.string(), z.unknown()),
  sources: z.array(z.string()),
  conflicts: z.array(conflictDto),
  conflict_explain: z.array(z.string()),
  tool_explain: z.array(z.string()),
  shadow_policy: z.record(z.string(), z.unknown()).optional(),
  shadow_sources: z.array(z.string()).optional(),
  shadow_conflicts: z.array(conflictDto).optional(),
  shadow_tool_explain: z.array(z.string()).optional(),
})

export const invalidThenSampleDto = z.array(z.object({ rule_node_id: z.string(), field: z.string(), error: z.string(), then_json: z.unknown() }))

/** rules_evaluate's output, as far as the contract reads it. */
export interface EvaluateOutput {
  considered: number
  matched: number
  skipped_invalid_then: { rule_id: string; field: string; error: string; sample: unknown }[]
  agent_visibility_summary: {
    agent: { id?: string; team_id?: string }
    rule_scope: z.input<typeof visibilityDto>['rule_scope']
    lane: { applied: boolean; reason: string }
  }
  active: RuleMatchOutput[]
  shadow: RuleMatchOutput[]
  applied: z.input<typeof appliedDto>
}

interface RuleMatchOutput {
  rule_id: string
  state: 'active' | 'shadow'
  summary: string
  rule_scope: string
  target_agent_id?: string
  target_team_id?: string
  if?: unknown
  then: Record<string, unknown>
  exceptions: unknown[]
  stats: { positive: number; negative: number }
  rank: z.input<typeof ruleMatchDto>['rank']
  match_detail: z.input<typeof ruleMatchDto>['match_detail']
  source: { path: string; commit?: string }
}

export function toRuleMatchDto(match: RuleMatchOutput): z.input<typeof ruleMatchDto> {
  return {
    rule_node_id: match.rule_id,
    state: match.state,
    summary: match.summary,
    rule_scope: match.rule_scope,
    ...(match.target_agent_id === undefined ? {} : { target_agent_id: match.target_agent_id }),
    ...(match.target_team_id === undefined ? {} : { target_team_id: match.target_team_id }),
    if_json: match.if ?? null,
    then_json: match.then,
    exceptions_json: match.exceptions,
    stats: match.stats,
    rank: match.rank,
    match_detail: match.match_detail,
    commit_id: match.source.commit ?? null,
  }
}

/** mk's visibility summary in the contract's words; mk refuses a private rule without an owner, so none is ever legacy-visible. */
export function toVisibilityDto(summary: EvaluateOutput['agent_visibility_summary']): z.input<typeof visibilityDto> {
  return {
    agent: { id: summary.agent.id ?? null, team_id: summary.agent.team_id ?? null },
    rule_scope: summary.rule_scope,
    lane: {
      applied: summary.lane.applied,
      reason: laneReasonOf[summary.lane.reason] ?? 'missing_agent_context',
      legacy_unowned_private_visible: false,
      legacy_unowned_private_detected: 0,
    },
  }
}

/** The number of rules skipped for an invalid then (a rule may have several defects), and a few of them. */
export function skippedRules(skipped: EvaluateOutput['skipped_invalid_then']): { count: number; sample: z.input<typeof invalidThenSampleDto> } {
  const firstPerRule = [...new Map(skipped.map((skip) => [skip.rule_id, skip])).values()]
  return {
    count: firstPerRule.length,
    sample: firstPerRule
      .slice(0, invalidThenSampleSize)
      .map((skip) => ({ rule_node_id: skip.rule_id, field: skip.field, error: skip.error, then_json: skip.sample })),
  }
}

/** One line per tool conflict (one rule denies what another allows or prefers), bounded: of the active rules, or of the shadow ones. */
export function toolConflictsSummary(conflicts: EvaluateOutput['applied']['conflicts']): string[] {
  return conflicts
    .filter((conflict) => conflict.path.startsWith('tool.'))
    .slice(0, toolConflictsSummarySize)
    .map((conflict) => `${conflict.path}: ${conflict.winner} over ${conflict.loser}`)
}
