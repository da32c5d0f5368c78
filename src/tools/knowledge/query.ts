import { z } from 'zod'
import { aliased } from '../aliases.js'
import { defineTool } from '../define.js'
import { identityOf } from '../memory/schemas.js'
import {
  knowledgeLayerSchema,
  knowledgeStatusSchema,
  knowledgeSummarySchema,
  knowledgeTypeSchema,
  loadProblemsSchema,
  oneOrMany,
  loadProblemsOutput,
  toSummary,
  exampleKnowledgeSummary,
} from './schemas.js'

export const knowledgeQuery = defineTool({
  name: 'knowledge_query',
  title: 'Search knowledge items',
  description:
    "Find the organisation's decisions and rules (ADRs, policies, patterns, specs) relevant to a question or a planned change: items containing any of the words, ranked by full text (BM25) fused with meaning (embeddings). Filters by type, layer, tags and status (default: accepted only). Use knowledge_show to read one item in full.",
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    text: z.string().optional().describe('Words to look for in title, summary, tags and body; omit to list by filters only'),
    query: z.string().optional().describe('Alias of text (the specification’s name)'),
    type: oneOrMany(knowledgeTypeSchema).optional().describe('Only these types'),
    layer: oneOrMany(knowledgeLayerSchema).optional().describe('Only these layers'),
    tags: oneOrMany(z.string().min(1)).optional().describe('Only items carrying every one of these tags'),
    status: oneOrMany(knowledgeStatusSchema).default(['accepted']).describe('Only these statuses (default: accepted)'),
    limit: z.number().int().min(1).max(100).default(10).describe('Most results to return (1-100)'),
  }),
  output: z.strictObject({
    items: z.array(knowledgeSummarySchema),
    totalCount: z.number().int().describe('Matches before the limit was applied'),
    problems: loadProblemsSchema,
  }),
  examples: [
    {
      title: 'Which decisions cover databases?',
      input: { text: 'database', type: 'adr' },
      output: {
        items: [exampleKnowledgeSummary],
        totalCount: 1,
      },
    },
  ],
  async run(input, ctx) {
    const { queryKnowledge } = await import('../../recall/query-knowledge.js')
    const query = { ...input, text: aliased('text', 'query', input.text, input.query), statuses: input.status, types: input.type, layers: input.layer }
    const progress = (done: number, total: number): void => ctx.progress?.({ phase: 'embedding new documents', done, total })
    const answer = await queryKnowledge(query, { ...ctx, identity: identityOf({}, ctx), progress })
    return { output: { items: answer.items.map(toSummary), totalCount: answer.totalCount, ...loadProblemsOutput(answer.problems) } }
  },
  render(output, style) {
    if (output.items.length === 0) return 'No matching knowledge items.'
    return output.items
      .map(
        (item) =>
          `${style.cyan(item.id)} ${style.dim(`${item.type} · ${item.layer} · ${item.status}`)}\n  ${item.title}${item.summary === undefined ? '' : `\n  ${style.dim(item.summary)}`}`,
      )
      .join('\n')
  },
})
