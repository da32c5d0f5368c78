import { z } from 'zod'
import type { DocumentIndex } from '../../search/document-index.js'
import type { IndexRefill } from '../../stores/index-store.js'
import type { ToolContext } from '../context.js'
import { identityOf } from '../memory/schemas.js'

export const indexSummarySchema = z.strictObject({
  documents: z.number().int(),
  memories: z.number().int(),
  knowledge: z.number().int(),
  directives: z.number().int().describe('Normative statements extracted from the knowledge items (mk rules directives)'),
  pendingEmbeddings: z.number().int().describe('Documents found by full text only until they are embedded'),
  model: z.string().optional().describe('Embedding model the vectors were built with'),
  searchMode: z.enum(['hybrid', 'fulltext']),
})

export type IndexSummary = z.output<typeof indexSummarySchema>

/** What index_update and index_rebuild report: the index afterwards, what was embedded, how long it took. */
export const indexRefreshSchema = indexSummarySchema.extend({
  read: z
    .number()
    .int()
    .describe('Memory files read because they were new or their stat data changed, plus knowledge items when the knowledge was loaded again'),
  embedded: z.number().int(),
  durationMs: z.number().int(),
})

export async function summarise(index: DocumentIndex): Promise<IndexSummary> {
  const stats = await index.stats()
  return {
    documents: stats.documents,
    memories: stats.memories,
    knowledge: stats.knowledge,
    directives: stats.directives,
    pendingEmbeddings: index.canSearchVectors ? stats.pending : 0,
    ...(stats.modelId === undefined ? {} : { model: stats.modelId }),
    searchMode: index.effectiveMode('hybrid') === 'hybrid' ? 'hybrid' : 'fulltext',
  }
}

/** Read everything again into the store's index (update) or into a new one (rebuild), with progress; knowledge files that were not indexed are warned about. */
export async function refillIndex(ctx: ToolContext, how: 'update' | 'rebuild'): Promise<IndexRefill> {
  const options = { identity: identityOf({}, ctx), warn: ctx.warn, progress: ctx.progress, signal: ctx.signal }
  const refill = how === 'update' ? await ctx.store.index.update(options) : await ctx.store.index.rebuild(options)
  const { formatProblem } = await import('../../knowledge/load.js')
  for (const problem of refill.knowledgeProblems) ctx.warn(`knowledge file not indexed: ${formatProblem(problem)}`)
  return refill
}
