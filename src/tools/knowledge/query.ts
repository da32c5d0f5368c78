import { z } from 'zod'
import { defineTool } from '../define.js'
import { knowledgeLayerSchema, knowledgeStatusSchema, knowledgeSummarySchema, knowledgeTypeSchema, oneOrMany, toSummary } from './schemas.js'

export const knowledgeQuery = defineTool({
  name: 'knowledge_query',
  title: 'Search knowledge items',
  description:
    'Find the organisation\'s decisions and rules (ADRs, policies, patterns, specs) relevant to a question or a planned change. Filters by type, layer, tags and status (default: accepted only). Use knowledge_show to read one item in full.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    text: z.string().optional().describe('Words to look for in title, summary, tags and body; omit to list by filters only'),
    type: oneOrMany(knowledgeTypeSchema).optional().describe('Only these types'),
    layer: oneOrMany(knowledgeLayerSchema).optional().describe('Only these layers'),
    tags: oneOrMany(z.string().min(1)).optional().describe('Only items carrying every one of these tags'),
    status: oneOrMany(knowledgeStatusSchema).default(['accepted']).describe('Only these statuses (default: accepted)'),
    limit: z.number().int().min(1).max(100).default(10).describe('Most results to return (1-100)'),
  }),
  output: z.strictObject({
    items: z.array(knowledgeSummarySchema),
    totalCount: z.number().int().describe('Matches before the limit was applied'),
  }),
  examples: [
    {
      title: 'Which decisions cover databases?',
      input: { text: 'database', type: 'adr' },
      output: {
        items: [
          {
            id: 'adr-0001-use-postgresql',
            type: 'adr',
            layer: 'project',
            title: 'Use PostgreSQL for relational data',
            summary: 'New services store relational data in PostgreSQL.',
            status: 'accepted',
            tags: ['database'],
            hasConstraints: true,
            path: 'knowledge/adr/adr-0001-use-postgresql.md',
          },
        ],
        totalCount: 1,
      },
    },
  ],
  async run(input, ctx) {
    const { loadKnowledge, assertNoErrors } = await import('../../knowledge/load.js')
    const { textMatchScore } = await import('../../knowledge/text-match.js')
    const base = await loadKnowledge(ctx.workspace)
    assertNoErrors(base)
    const matches = base.items
      .filter((item) => input.type === undefined || input.type.includes(item.type))
      .filter((item) => input.layer === undefined || input.layer.includes(item.layer))
      .filter((item) => input.status.includes(item.status))
      .filter((item) => input.tags === undefined || input.tags.every((tag) => item.tags.includes(tag)))
      .map((item) => ({ item, score: input.text === undefined ? 1 : textMatchScore(item, input.text) }))
      .filter((match) => match.score > 0)
      .sort((a, b) => b.score - a.score || a.item.id.localeCompare(b.item.id))
    const items = matches.slice(0, input.limit).map((match) => toSummary(match.item))
    const { style } = ctx
    const display =
      items.length === 0
        ? 'No matching knowledge items.'
        : items
            .map((item) => `${style.cyan(item.id)} ${style.dim(`${item.type} · ${item.layer} · ${item.status}`)}\n  ${item.title}${item.summary === undefined ? '' : `\n  ${style.dim(item.summary)}`}`)
            .join('\n')
    return { output: { items, totalCount: matches.length }, display }
  },
})
