import { z } from 'zod'
import { toolSelection } from '../../policy-rules/report.js'
import { defineTool } from '../define.js'
import { evaluateForContext } from './policy-set.js'
import { contextSchema, skippedSchema, visibilitySchema } from './policy-schemas.js'
import { candidatesSchema, selectionSchema } from './selection-schemas.js'

export const toolsSelect = defineTool({
  name: 'tools_select',
  title: 'Select a tool by the policy rules',
  description:
    'Call before choosing a tool: given your context and the candidate tools, returns which the policy rules allow, deny and prefer, in order, and the one to use (selected). Allow lists intersect, deny lists unite, prefer orders by rule rank; every decision is explained. strict (default) refuses with NO_TOOLS_ALLOWED when nothing is left; strict false falls back to deny-only and says so.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    context: contextSchema,
    candidates: candidatesSchema,
    strict: z.boolean().default(true).describe('Refuse with NO_TOOLS_ALLOWED when no candidate is allowed (false: fall back to deny-only)'),
    include_shadow: z.boolean().default(false).describe('Also report the selection shadow rules would make if they were active'),
    rules_limit: z.number().int().min(1).max(200).default(50).describe('Most rules listed in rules.sources (1-200)'),
  }),
  output: z.strictObject({
    candidates: z.array(z.string()).describe('The candidates, deduplicated'),
    selection: selectionSchema,
    rules: z.strictObject({
      considered: z.number().int(),
      matched: z.number().int(),
      skipped_invalid_then: skippedSchema,
      agent_visibility_summary: visibilitySchema,
      sources: z
        .array(z.strictObject({ rule_id: z.string(), state: z.enum(['active', 'shadow']), score: z.number() }))
        .describe('The matched rules, highest rank first (shadow ones only with include_shadow)'),
      conflict_explain: z.array(z.string()),
      tool_explain: z.array(z.string()).describe('The allow, deny and prefer lists and why, then one line per candidate'),
      tool_conflicts_summary: z.strictObject({
        count: z.number().int().describe('Tools one rule denies and another allows or prefers'),
        tools: z.array(z.string()),
      }),
      shadow_selection: selectionSchema.extend({ differs: z.boolean().describe('Whether enforcing the shadow rules would change the selection') }).optional(),
    }),
  }),
  examples: [
    {
      title: 'Search tools in production',
      input: { context: { agent: { id: 'planner-1' }, environment: 'production' }, candidates: ['shell', 'grep', 'rg'] },
      output: {
        candidates: ['shell', 'grep', 'rg'],
        selection: { allowed: ['grep', 'rg'], denied: ['shell'], preferred: ['rg'], ordered: ['rg', 'grep'], selected: 'rg' },
        rules: {
          considered: 2,
          matched: 2,
          skipped_invalid_then: [],
          agent_visibility_summary: {
            agent: { id: 'planner-1' },
            rule_scope: {
              scanned: 2,
              filtered_by_scope: 0,
              filtered_by_lane: 0,
              filtered_by_condition: 0,
              skipped_invalid_then: 0,
              matched_active: 2,
              matched_shadow: 0,
            },
            lane: { applied: true, reason: 'agent_context' },
          },
          sources: [
            { rule_id: 'no-shell-in-production', state: 'active', score: 51 },
            { rule_id: 'prefer-rg', state: 'active', score: 50 },
          ],
          conflict_explain: [],
          tool_explain: [
            'deny: shell (no-shell-in-production)',
            'prefer: rg (prefer-rg, rank 50)',
            'shell: denied by no-shell-in-production',
            'grep: allowed',
            'rg: allowed, preferred by prefer-rg (rank 50)',
          ],
          tool_conflicts_summary: { count: 0, tools: [] },
        },
      },
    },
  ],
  async run(input, ctx) {
    const evaluation = await evaluateForContext(ctx, input.context)
    const { output, selection } = toolSelection(evaluation, {
      candidates: input.candidates,
      strict: input.strict,
      includeShadow: input.include_shadow,
      rulesLimit: input.rules_limit,
    })
    return { output, display: selectionText(output, selection.explain) }
  },
})

/** The display shows the selection's own explanation lines, which the output mixes into tool_explain: run renders it. */
function selectionText(output: ReturnType<typeof toolSelection>['output'], explain: readonly string[]): string {
  const { selection, rules } = output
  return [
    `selected: ${selection.selected ?? '(none)'}`,
    `ordered: ${selection.ordered.join(', ') || '(none)'}`,
    ...(selection.denied.length > 0 ? [`denied: ${selection.denied.join(', ')}`] : []),
    ...(selection.fallback === undefined ? [] : [`fallback: ${selection.fallback}`]),
    ...explain.map((line) => `  ${line}`),
    ...rules.conflict_explain.map((line) => `conflict ${line}`),
    ...(rules.shadow_selection === undefined
      ? []
      : [`shadow rules would select: ${rules.shadow_selection.selected ?? '(none)'} (${rules.shadow_selection.differs ? 'differs' : 'same'})`]),
  ].join('\n')
}
