import { z } from 'zod'
import { outcomes } from '../../knowledge/policy-rule/model.js'
import { checkFeedback, feedbackEvents } from '../../policy-rules/feedback.js'
import { defineTool } from '../define.js'
import { evaluateForContext } from './policy-set.js'
import { contextSchema } from './policy-schemas.js'
import { candidatesSchema } from './selection-schemas.js'

export const toolsFeedback = defineTool({
  name: 'tools_feedback',
  title: 'Record how a selected tool worked out',
  description:
    "After using a tool tools_select chose: record whether it worked (positive, negative or neutral). The outcome is credited to the matched rules that decided about that tool (target tool) or about any candidate (target all), appended to each rule's outcome ledger in MK_HOME and committed, so git log shows how a rule earned its rank; the rules' evidence_score, and so their rank, follow from these outcomes.",
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({
    context: contextSchema,
    candidates: candidatesSchema,
    selected_tool: z.string().trim().min(1).describe('The tool that was used; one of candidates'),
    outcome: z.enum(outcomes).describe('Whether using it worked; neutral is recorded but moves no rank'),
    run_id: z.string().min(1).max(200).optional().describe("The planner's run id, to find the outcome again"),
    note: z.string().max(2000).optional().describe('A short note on what happened (secrets are redacted before it is written)'),
    target: z.enum(['tool', 'all']).default('tool').describe('Credit the rules that name the selected tool (tool) or any candidate (all)'),
    include_shadow: z.boolean().default(false).describe('Also credit matching shadow rules, so they earn evidence before they are activated'),
    input_text: z.string().min(1).max(100_000).optional().describe('The task the tool was selected for; only its SHA-256 is kept'),
    input_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lower-case hex (64 characters)')
      .optional()
      .describe('The SHA-256 of the task, instead of input_text'),
  }),
  output: z.strictObject({
    updated_rules: z.number().int().describe('How many rules the outcome was credited to'),
    rule_ids: z.array(z.string()),
    commit: z.string().optional().describe('The MK_HOME commit recording it; absent when no rule was credited'),
  }),
  examples: [
    {
      title: 'rg worked for a search in production',
      input: {
        context: { agent: { id: 'planner-1' }, environment: 'production' },
        candidates: ['shell', 'grep', 'rg'],
        selected_tool: 'rg',
        outcome: 'positive',
        run_id: 'run-42',
        input_text: 'find where the session timeout is configured',
      },
      output: { updated_rules: 1, rule_ids: ['prefer-rg'], commit: '9c1e4b7a2d3f5e6a7b8c9d0e1f2a3b4c5d6e7f80' },
    },
  ],
  async run(input, ctx) {
    checkFeedback(input)
    const evaluation = await evaluateForContext(ctx, input.context)
    const events = feedbackEvents(input, evaluation, new Date().toISOString())
    const ruleIds = events.map((event) => event.rule_id)
    if (ruleIds.length === 0) {
      return {
        output: { updated_rules: 0, rule_ids: [] },
        display: `no matched rule names ${input.target === 'tool' ? input.selected_tool : 'any candidate'}: nothing recorded`,
      }
    }
    const recorded = await ctx.store.outcomes.record(events, ctx.runtime.author)
    return {
      output: { updated_rules: ruleIds.length, rule_ids: ruleIds, commit: recorded.commit },
      display: `recorded ${input.outcome} for ${input.selected_tool} on ${ruleIds.length} rule${ruleIds.length === 1 ? '' : 's'} (${ruleIds.join(', ')}) in MK_HOME commit ${recorded.commit.slice(0, 7)}`,
    }
  },
})
