import { z } from 'zod'
import { outputFormats, ruleScopes } from '../../knowledge/policy-rule/model.js'

/** The caller's context: the JSON object whose paths the rules' conditions read (`agent.id`, `agent.team_id`, `environment`, ...). */
export const contextSchema = z
  .record(z.string(), z.unknown())
  .describe('What the planner knows, as a JSON object the rules read: agent {id, team_id}, environment, task, ... (JSON Logic var paths)')

const toolNames = z.array(z.string())

export const policySchema = z
  .strictObject({
    output: z.strictObject({ format: z.enum(outputFormats).optional(), strict: z.boolean().optional() }).optional(),
    tool: z.strictObject({ allow: toolNames.optional(), deny: toolNames.optional(), prefer: toolNames.optional() }).optional(),
    extensions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  })
  .describe('A policy patch: output format, tool allow/deny/prefer lists, namespaced extensions')

export const ruleMatchSchema = z.strictObject({
  rule_id: z.string(),
  state: z.enum(['active', 'shadow']),
  summary: z.string(),
  rule_scope: z.enum(ruleScopes),
  target_agent_id: z.string().optional(),
  target_team_id: z.string().optional(),
  if: z.unknown().optional().describe('The JSON Logic condition; absent when the rule always applies'),
  then: policySchema,
  exceptions: z.array(z.unknown()),
  stats: z.strictObject({ positive: z.number().int(), negative: z.number().int() }),
  rank: z.strictObject({
    score: z.number().describe('priority × 1000 + evidence_score × 100 × weight + specificity'),
    evidence_score: z.number(),
    priority: z.number().int(),
    weight: z.number(),
    specificity: z.number().int(),
  }),
  match_detail: z.strictObject({ condition_paths: z.array(z.string()), condition_path_count: z.number().int() }),
  source: z.strictObject({ path: z.string(), commit: z.string().optional().describe('HEAD of the git repository holding the file') }),
})

export const skippedSchema = z
  .array(
    z.strictObject({
      rule_id: z.string(),
      path: z.string(),
      field: z.string().describe('The field written wrongly: then, if, priority, lane, ...'),
      error: z.string(),
      sample: z.unknown().describe('The value as written'),
    }),
  )
  .describe('Visible rules that are written wrongly (an invalid then above all): never applied; mk knowledge lint shows where')

const countsSchema = z.strictObject({
  scanned: z.number().int(),
  filtered_by_scope: z.number().int(),
  filtered_by_lane: z.number().int(),
  filtered_by_condition: z.number().int(),
  skipped_invalid_then: z.number().int(),
  matched_active: z.number().int(),
  matched_shadow: z.number().int(),
})

export const visibilitySchema = z.strictObject({
  agent: z.strictObject({ id: z.string().optional(), team_id: z.string().optional() }),
  rule_scope: countsSchema,
  lane: z.strictObject({
    applied: z.boolean(),
    reason: z.enum(['agent_and_team_context', 'agent_context', 'team_context', 'missing_agent_context']),
  }),
})

export const conflictSchema = z.strictObject({
  path: z.string(),
  winner: z.string(),
  loser: z.string(),
  winner_value: z.unknown(),
  loser_value: z.unknown(),
})

export type RuleMatchOutput = z.output<typeof ruleMatchSchema>
