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
  reportLoadProblems,
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
    const { readKnowledgeItems } = await import('../../knowledge/read-hits.js')
    const index = await ctx.store.index.open(ctx.warn)
    const fresh = await ctx.store.index.refresh({ identity: identityOf({}, ctx), memory: false, warn: ctx.warn })
    const { problemsToReport } = await import('../../knowledge/load.js')
    const problems = reportLoadProblems(problemsToReport({ problems: fresh.knowledgeProblems }), ctx.warn)
    const filters = {
      kind: 'knowledge' as const,
      statuses: input.status,
      ...(input.type === undefined ? {} : { types: input.type }),
      ...(input.layer === undefined ? {} : { layers: input.layer }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
    }
    const text = aliased('text', 'query', input.text, input.query)
    let ids: string[]
    if (text === undefined || text.trim() === '') {
      ids = (await index.list(filters)).map((doc) => doc.id).sort((a, b) => a.localeCompare(b))
    } else {
      const { searchMode } = await ctx.store.index.embedPending({
        warn: ctx.warn,
        progress: (done, total) => ctx.progress?.({ phase: 'embedding new documents', done, total }),
        signal: ctx.signal,
      })
      const hits = await index.search({ text, mode: searchMode, limit: 100, textWeight: ctx.workspace.config.search.textWeight, filters })
      // Similarities of the bundled encoder have no usable absolute floor (unrelated texts reach 0.6), so an item
      // must contain a query word to match; meaning then decides the order among the matches.
      ids = hits.filter((hit) => hit.scores.text !== undefined).map((hit) => hit.id)
    }
    const items = (await readKnowledgeItems(ctx.workspace, await index.getMany(ids.slice(0, input.limit)), ctx.warn)).map(toSummary)
    const { style } = ctx
    const display =
      items.length === 0
        ? 'No matching knowledge items.'
        : items
            .map(
              (item) =>
                `${style.cyan(item.id)} ${style.dim(`${item.type} · ${item.layer} · ${item.status}`)}\n  ${item.title}${item.summary === undefined ? '' : `\n  ${style.dim(item.summary)}`}`,
            )
            .join('\n')
    return { output: { items, totalCount: ids.length, ...problems }, display }
  },
})
