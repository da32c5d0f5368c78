import { z } from 'zod'
import { directiveSeverities } from '../../directives/model.js'
import { defineTool } from '../define.js'
import { identityOf } from '../memory/schemas.js'
import { modeSlugSchema, taskTextSchema } from './schemas.js'
import type { DirectiveDiagnostics } from '../../directives/query.js'
import { directiveSet } from './directive-set.js'

const citationSchema = z.strictObject({
  sourcePath: z.string().describe('The knowledge file, relative to the workspace'),
  section: z.string().describe('Anchor of the heading the directive sits under'),
  severity: z.enum(directiveSeverities),
  itemId: z.string(),
  directiveId: z.string(),
})

function diagnosticsText(diagnostics: DirectiveDiagnostics): string {
  const { searched, considered, selected } = diagnostics.retrievalStats
  return [
    '---',
    `layer: ${diagnostics.detectedLayer ?? '(none detected)'}`,
    `topics: ${diagnostics.topics.join(', ') || '(none detected)'}`,
    `keywords: ${diagnostics.keywords.join(', ')}`,
    `directives: ${searched} searched, ${considered} considered, ${selected} selected`,
    ...(diagnostics.cut.directives.length > 0 ? [`cut: ${diagnostics.cut.directives.join(', ')}`] : []),
    ...diagnostics.scoringNotes.map((note) => `note: ${note}`),
  ].join('\n')
}

export const rulesQueryDirectives = defineTool({
  name: 'rules_query_directives',
  title: 'Rules that apply to a task',
  description:
    "Call at the start of a task: returns the organisation's rules (MUST/SHOULD/MAY statements from accepted ADRs, policies and rules) that apply to what you are about to do, ranked, each cited to its file and section, as a markdown block within a token budget, plus the most relevant remembered facts.",
  tier: 'read_only',
  idempotent: true,
  timeoutMs: 120_000,
  input: z.strictObject({
    taskDescription: taskTextSchema.describe('What you are about to do, in plain language (longer than 2,000 characters is cut)'),
    modeSlug: modeSlugSchema,
    options: z
      .strictObject({
        strictLayer: z.boolean().default(true).describe('Leave out rules that apply only to other architecture layers (false: rank them lower)'),
        maxItems: z
          .number()
          .int()
          .default(8)
          .transform((value) => Math.min(12, Math.max(3, value)))
          .describe('Most directives in the block (clamped to 3-12)'),
        tokenBudget: z.number().int().min(50).max(32_000).default(900).describe('Most tokens the block may take (o200k tokenizer), at least 50'),
        includeBreadcrumbs: z.boolean().default(true).describe('Show the heading path of each rule'),
        includeDiagnostics: z.boolean().default(false).describe('Also return what was detected, how it ranked and what was cut'),
        topicsBias: z.array(z.string().min(1)).default([]).describe('Topics to treat as detected (security, persistence, ...)'),
        includeMemories: z.boolean().default(true).describe('Add a short "Remembered" section with the most relevant memories, after the rules'),
        includeProposed: z.boolean().default(false).describe('Also serve rules of proposed items'),
      })
      .prefault({}),
  }),
  output: z.strictObject({
    context_block: z.string().describe('Markdown to put in front of the task: "Contextual rules for this task", one bullet per rule'),
    citations: z.array(citationSchema).describe('Where each bullet came from, in bullet order'),
    tokens: z.number().int().describe('Tokens of context_block (o200k)'),
    fallback: z
      .string()
      .optional()
      .describe('Present when no rule matched the task: why, and what the block holds instead (the core rules) or why it is empty'),
    diagnostics: z
      .strictObject({
        detectedLayer: z.string().optional(),
        topics: z.array(z.string()),
        keywords: z.array(z.string()),
        scoringNotes: z.array(z.string()),
        retrievalStats: z.strictObject({ searched: z.number().int(), considered: z.number().int(), selected: z.number().int() }),
        cut: z.strictObject({ directives: z.array(z.string()), memories: z.array(z.string()) }).describe('Ranked but left out by maxItems or the budget'),
      })
      .optional(),
  }),
  examples: [
    {
      title: 'Rules for a persistence task',
      input: { taskDescription: 'add a new endpoint that stores customer addresses in Postgres', options: { tokenBudget: 300 } },
      output: {
        context_block:
          '# Contextual rules for this task\n\n- [MUST] All services MUST validate input at the boundary. — Security baseline > Input validation (covers api) [1: knowledge/policies/security.md#input-validation]\n',
        citations: [
          {
            sourcePath: 'knowledge/policies/security.md',
            section: 'input-validation',
            severity: 'MUST',
            itemId: 'security-baseline',
            directiveId: 'security-baseline#input-validation-1',
          },
        ],
        tokens: 48,
      },
    },
  ],
  async run(input, ctx) {
    const { loadTokenCounter } = await import('../../token-count.js')
    // Started first: reading the tokenizer's files overlaps the index's file checks.
    const countTokens = ctx.resources.get('token-counter', loadTokenCounter)
    const { rulesForTask } = await import('../../directives/rules-for-task.js')
    const { options } = input
    const answer = await rulesForTask(
      { taskDescription: input.taskDescription, modeSlug: input.modeSlug, ...options },
      {
        ...ctx,
        index: ctx.store.index,
        identity: identityOf({}, ctx),
        directiveSet: (index, statuses) => directiveSet(index, ctx, statuses),
        countTokens,
        progress: (done, total) => ctx.progress?.({ phase: 'embedding new documents', done, total }),
      },
    )
    const { detectedLayer, ...diagnostics } = answer.diagnostics
    const output = {
      context_block: answer.contextBlock,
      citations: answer.citations,
      tokens: answer.tokens,
      ...(answer.fallback === undefined ? {} : { fallback: answer.fallback }),
      ...(options.includeDiagnostics ? { diagnostics: { ...(detectedLayer === undefined ? {} : { detectedLayer }), ...diagnostics } } : {}),
    }
    return { output, display: options.includeDiagnostics ? `${answer.contextBlock}\n${diagnosticsText(answer.diagnostics)}` : answer.contextBlock }
  },
})
