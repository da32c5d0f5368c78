import { z } from 'zod'
import type { SearchIndex } from '../../search/search-index.js'
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

export function summarise(index: SearchIndex): IndexSummary {
  const stats = index.stats()
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

/** Read every visible memory folder and knowledge source again, then embed what has no vector, reporting progress. */
export async function refreshAll(index: SearchIndex, ctx: ToolContext): Promise<{ read: number; embedded: number }> {
  const { ensureFresh } = await import('../../stores/files/indexing/workspace-index.js')
  ctx.progress?.({ phase: 'reading files', done: 0, total: undefined })
  const report = await ensureFresh(index, ctx.workspace, {
    identity: identityOf({}, ctx),
    force: true,
    warn: ctx.warn,
  })
  const { formatProblem } = await import('../../knowledge/load.js')
  for (const problem of report.knowledgeProblems) ctx.warn(`knowledge file not indexed: ${formatProblem(problem)}`)
  const read = report.memoriesRead + (report.knowledgeReloaded ? index.stats().knowledge : 0)
  ctx.progress?.({ phase: 'reading files', done: read, total: read })
  const embedded = await index.embedPending((done, total) => ctx.progress?.({ phase: 'embedding', done, total }), ctx.signal)
  return { read, embedded }
}
