import { z } from 'zod'
import { defineTool } from '../define.js'
import { renderTable } from '../table.js'
import {
  knowledgeLayerSchema,
  knowledgeStatusSchema,
  knowledgeSummarySchema,
  knowledgeTypeSchema,
  loadProblemsSchema,
  oneOrMany,
  reportLoadProblems,
  toSummary,
  exampleKnowledgeSummary,
} from './schemas.js'

export const knowledgeList = defineTool({
  name: 'knowledge_list',
  title: 'List knowledge items',
  description:
    'List every knowledge item (ADRs, policies, patterns, specs, rules) of every configured source, with type, layer and status. Use knowledge_query to search by text instead.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    type: oneOrMany(knowledgeTypeSchema).optional().describe('Only items of these types'),
    layer: oneOrMany(knowledgeLayerSchema).optional().describe('Only items of these layers'),
    status: oneOrMany(knowledgeStatusSchema).optional().describe('Only items with these statuses (default: every status)'),
  }),
  output: z.strictObject({
    items: z.array(knowledgeSummarySchema),
    totalCount: z.number().int(),
    problems: loadProblemsSchema,
  }),
  examples: [
    {
      title: 'List accepted ADRs',
      input: { type: 'adr', status: 'accepted' },
      output: {
        items: [exampleKnowledgeSummary],
        totalCount: 1,
      },
    },
  ],
  async run(input, ctx) {
    const { loadKnowledge, problemsToReport } = await import('../../knowledge/load.js')
    const base = await loadKnowledge(ctx.workspace)
    const problems = reportLoadProblems(problemsToReport(base), ctx.warn)
    const items = base.items
      .filter((item) => input.type === undefined || input.type.includes(item.type))
      .filter((item) => input.layer === undefined || input.layer.includes(item.layer))
      .filter((item) => input.status === undefined || input.status.some((status) => status === item.status))
      .map(toSummary)
    return { output: { items, totalCount: items.length, ...problems } }
  },
  render({ items }, style) {
    if (items.length === 0) return 'No knowledge items found.'
    const table = renderTable(
      items,
      [
        { header: 'ID', value: (item) => item.id, decorate: (text) => style.cyan(text), max: 48 },
        { header: 'TYPE', value: (item) => item.type },
        { header: 'LAYER', value: (item) => item.layer },
        {
          header: 'STATUS',
          value: (item) => item.status,
          decorate: (text, item) => (item.status === 'accepted' ? style.green(text) : style.dim(text)),
        },
        { header: 'TITLE', value: (item) => `${item.title}${item.hasConstraints ? ' ⚑' : ''}`, max: 70 },
      ],
      style.bold,
    )
    return `${table}\n${style.dim(`${items.length} item${items.length === 1 ? '' : 's'}; ⚑ has constraints`)}`
  },
})
