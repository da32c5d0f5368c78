import { z } from 'zod'
import { evaluationReport } from '../../policy-rules/report.js'
import { defineTool } from '../define.js'
import { evaluateForContext } from './policy-set.js'
import { shadowApplied, shadowAppliedFields } from './shadow-applied.js'
import { conflictSchema, contextSchema, policySchema, ruleMatchSchema, skippedSchema, visibilitySchema, type RuleMatchOutput } from './policy-schemas.js'

function matchLine(match: RuleMatchOutput): string {
  const target = match.target_agent_id ?? match.target_team_id
  return `  ${match.rule_id}  rank ${match.rank.score}  ${match.rule_scope}${target === undefined ? '' : ` ${target}`}  then ${JSON.stringify(match.then)}`
}

export const rulesEvaluate = defineTool({
  name: 'rules_evaluate',
  title: 'Evaluate policy rules against a context',
  description:
    "Which of the organisation's policy rules (type: rule knowledge items with JSON Logic if/then) apply to a planner's context, and the policy they make together: output format, tools allowed, denied and preferred, namespaced extensions. Rules are filtered by scope (global, team, agent), lane (private rules for their owner) and condition; conflicts are resolved by rank (priority × 1000 + evidence × 100 × weight + specificity) and each is explained. Shadow rules are reported, never applied.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    context: contextSchema,
    include_shadow: z.boolean().default(true).describe('Also list matching shadow rules (evaluated and reported, never applied)'),
    limit: z.number().int().min(1).max(200).default(50).describe('Most rules listed in active and in shadow (1-200); the policy always comes from every match'),
  }),
  output: z.strictObject({
    considered: z.number().int().describe('Policy rules scanned (draft rules are never considered)'),
    matched: z.number().int().describe('Active and shadow rules that matched'),
    skipped_invalid_then: skippedSchema,
    agent_visibility_summary: visibilitySchema,
    active: z.array(ruleMatchSchema).describe('Matched active rules, highest rank first'),
    shadow: z.array(ruleMatchSchema).describe('Matched shadow rules, highest rank first (empty unless include_shadow)'),
    applied: z.strictObject({
      policy: policySchema,
      sources: z.array(z.string()).describe('The active rules the policy comes from, highest rank first'),
      conflicts: z.array(conflictSchema),
      conflict_explain: z.array(z.string()).describe('One line per conflict: what, winner, loser, why'),
      tool_explain: z.array(z.string()).describe('How the tool lists came about, one line per decision'),
      ...shadowAppliedFields,
    }),
  }),
  examples: [
    {
      title: 'Rules for a production deploy by an agent of the platform team',
      input: { context: { agent: { id: 'planner-1', team_id: 'platform' }, environment: 'production' } },
      output: {
        considered: 3,
        matched: 1,
        skipped_invalid_then: [],
        agent_visibility_summary: {
          agent: { id: 'planner-1', team_id: 'platform' },
          rule_scope: {
            scanned: 3,
            filtered_by_scope: 1,
            filtered_by_lane: 0,
            filtered_by_condition: 1,
            skipped_invalid_then: 0,
            matched_active: 1,
            matched_shadow: 0,
          },
          lane: { applied: true, reason: 'agent_and_team_context' },
        },
        active: [
          {
            rule_id: 'no-shell-in-production',
            state: 'active',
            summary: 'No shell commands against production',
            rule_scope: 'global',
            if: { '==': [{ var: 'environment' }, 'production'] },
            then: { tool: { deny: ['shell'] } },
            exceptions: [],
            stats: { positive: 0, negative: 0 },
            rank: { score: 51, evidence_score: 0.5, priority: 0, weight: 1, specificity: 1 },
            match_detail: { condition_paths: ['environment'], condition_path_count: 1 },
            source: { path: 'knowledge/rules/no-shell-in-production.md', commit: '2f4c1d0a9e8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d' },
          },
        ],
        shadow: [],
        applied: {
          policy: { tool: { deny: ['shell'] } },
          sources: ['no-shell-in-production'],
          conflicts: [],
          conflict_explain: [],
          tool_explain: ['deny: shell (no-shell-in-production)'],
          shadow_policy: {},
          shadow_sources: [],
          shadow_conflicts: [],
          shadow_conflict_explain: [],
          shadow_tool_explain: [],
        },
      },
    },
  ],
  async run(input, ctx) {
    const evaluation = await evaluateForContext(ctx, input.context)
    const report = evaluationReport(evaluation, { limit: input.limit, includeShadow: input.include_shadow })
    const output = input.include_shadow ? { ...report, applied: { ...report.applied, ...shadowApplied(evaluation) } } : report
    return { output }
  },
  render(output) {
    const { agent, lane, rule_scope: counts } = output.agent_visibility_summary
    const who =
      agent.id === undefined && agent.team_id === undefined ? 'no agent or team in the context' : `agent ${agent.id ?? '-'}, team ${agent.team_id ?? '-'}`
    return [
      `${output.considered} rules considered, ${output.matched} matched (${counts.matched_active} active, ${counts.matched_shadow} shadow), ${output.skipped_invalid_then.length} skipped as invalid`,
      `${who}; lane filter ${lane.applied ? 'applied' : 'not applied'} (${lane.reason})`,
      ...(output.active.length > 0 ? ['active:', ...output.active.map(matchLine)] : []),
      ...(output.shadow.length > 0 ? ['shadow (not applied):', ...output.shadow.map(matchLine)] : []),
      ...output.skipped_invalid_then.map((skip) => `skipped ${skip.rule_id} (${skip.path}): ${skip.error}`),
      `policy: ${JSON.stringify(output.applied.policy)}`,
      ...output.applied.tool_explain.map((line) => `  ${line}`),
      ...output.applied.conflict_explain.map((line) => `conflict ${line}`),
    ].join('\n')
  },
})
