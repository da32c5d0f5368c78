import { createHash } from 'node:crypto'
import { z } from 'zod'
import { MkError } from '../../errors.js'
import { attributeOutcome } from '../../policy-rules/attribute.js'
import { outcomes } from '../../knowledge/policy-rule/model.js'
import { byRank } from '../../policy-rules/rank.js'
import { defineTool } from '../define.js'
import { evaluateForContext } from './policy-set.js'
import { contextSchema } from './policy-schemas.js'
import { candidatesSchema } from './selection-schemas.js'

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** The task input is recorded only as a hash: exactly one of input_text (hashed here) or input_sha256 must be given. */
function inputHash(input: { input_text?: string | undefined; input_sha256?: string | undefined }): string {
  if ((input.input_text === undefined) === (input.input_sha256 === undefined)) {
    throw new MkError('INVALID_INPUT', 'input_text or input_sha256: give exactly one (the task the tool was selected for; only its hash is kept)', {
      details: { field: 'input_text', hint: 'pass input_text with the task, or input_sha256 with its SHA-256 in hex' },
    })
  }
  return input.input_sha256 ?? sha256(input.input_text ?? '')
}

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
    if (!input.candidates.includes(input.selected_tool)) {
      throw new MkError('INVALID_INPUT', `selected_tool: "${input.selected_tool}" is not one of the candidates (${input.candidates.join(', ')})`, {
        details: { field: 'selected_tool', hint: 'pass the tool that was used, and the candidates it was selected from' },
      })
    }
    const inputSha256 = inputHash(input)
    const evaluation = await evaluateForContext(ctx, input.context)
    const matched = input.include_shadow ? [...evaluation.active, ...evaluation.shadow].sort(byRank) : evaluation.active
    const credited = attributeOutcome(matched, input.target, input.selected_tool, input.candidates)
    const ruleIds = credited.map((entry) => entry.rule.id)
    if (ruleIds.length === 0) {
      return {
        output: { updated_rules: 0, rule_ids: [] },
        display: `no matched rule names ${input.target === 'tool' ? input.selected_tool : 'any candidate'}: nothing recorded`,
      }
    }
    const at = new Date().toISOString()
    const contextSha256 = sha256(JSON.stringify(input.context))
    const events = ruleIds.map((ruleId) => ({
      rule_id: ruleId,
      at,
      outcome: input.outcome,
      tool: input.selected_tool,
      target: input.target,
      ...(input.run_id === undefined ? {} : { run_id: input.run_id }),
      ...(input.note === undefined ? {} : { note: input.note }),
      input_sha256: inputSha256,
      context_sha256: contextSha256,
    }))
    const recorded = await ctx.store.outcomes.record(events, ctx.runtime.author)
    return {
      output: { updated_rules: ruleIds.length, rule_ids: ruleIds, commit: recorded.commit },
      display: `recorded ${input.outcome} for ${input.selected_tool} on ${ruleIds.length} rule${ruleIds.length === 1 ? '' : 's'} (${ruleIds.join(', ')}) in MK_HOME commit ${recorded.commit.slice(0, 7)}`,
    }
  },
})
