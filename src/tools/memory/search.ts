import { z } from 'zod'
import type { MemorySearch } from '../../recall/search-memories.js'
import type { Style } from '../../style.js'
import { memoryTiers } from '../../memory/model.js'
import { defaultThreshold } from '../../search/calibration.js'
import { defineTool } from '../define.js'
import { oneOrMany } from '../knowledge/schemas.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryLayerSchema, memoryQuerySchema, scoresSchema } from './schemas.js'

/** How many ranked memories a search looks at before it collapses layers and applies the limit. */
const candidatePool = 1000

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memories',
  description:
    'Find memories by meaning and by words (hybrid: BM25 full text fused with embedding similarity), across every layer visible here or the layers given. Expired memories are not returned. Each result says how it scored, on a calibrated scale shared by every query; by default only results scoring 0.7 or more come back, and when none does the search abstains (no results, abstained: true): the memories most likely hold no answer.',
  tier: 'read_only',
  idempotent: true,
  timeoutMs: 120_000,
  input: z.strictObject({
    query: memoryQuerySchema.describe('What you want to recall, in plain language'),
    layers: oneOrMany(memoryLayerSchema).optional().describe('Only these layers (default: every layer visible here)'),
    limit: z.number().int().min(1).max(100).default(10).describe('Most results to return (1-100)'),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .default(defaultThreshold)
      .describe(
        'Only results scoring at least this (0-1, default 0.7; scores mean the same for every query). When none does, the search abstains: no results, abstained true. 0 returns the nearest memories whatever they score',
      ),
    tags: z.array(z.string().min(1)).optional().describe('Only memories carrying all of these tags'),
    tiers: z
      .array(z.enum(memoryTiers))
      .min(1)
      .default(['hot', 'warm'])
      .describe('Tiers to search (default hot and warm; add cold or archive to reach memories decay moved down)'),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    success: z.literal(true),
    results: z.array(
      z.strictObject({
        memoryId: z.string(),
        content: z.string(),
        layer: memoryLayerSchema,
        score: z
          .number()
          .describe(
            'Confidence that this memory answers the query, 0-1, on one scale for every query: 0.7 and above is usually an answer (the best hit of a question the memories cannot answer rarely reaches it)',
          ),
        scores: scoresSchema,
        tags: z.array(z.string()),
        stale: z.boolean().describe('True when a ref names a knowledge item that is superseded, deprecated or gone, or a workspace file that no longer exists'),
        staleReason: z.string().optional().describe('Why it is stale'),
        shadows: z
          .array(z.strictObject({ memoryId: z.string(), layer: memoryLayerSchema }))
          .describe('The same fact stored in less specific layers, hidden behind this one'),
      }),
    ),
    abstained: z.boolean().describe('True when no memory scored at least threshold: the memories most likely hold no answer (results is empty)'),
    totalCount: z.number().int().describe(`How many memories scored at least threshold before limit (counted among the best ${candidatePool})`),
    searchedLayers: z.array(memoryLayerSchema),
    searchMode: z.enum(['hybrid', 'fulltext']).describe('What really ran: fulltext when no embedding model is configured or it failed'),
    pendingEmbeddings: z
      .number()
      .int()
      .describe('Memories and knowledge items still without an embedding, found by full text only (0 unless embedding was stopped or failed)'),
  }),
  examples: [
    {
      title: 'Recall by meaning',
      input: { query: 'what database do we use', limit: 3 },
      output: {
        success: true,
        results: [
          {
            memoryId: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
            content: 'We store everything in Postgres',
            layer: 'project',
            score: 1,
            scores: { text: 0.72, vector: 0.79 },
            tags: ['database'],
            stale: false,
            shadows: [],
          },
        ],
        abstained: false,
        totalCount: 1,
        searchedLayers: ['user', 'project'],
        searchMode: 'hybrid',
        pendingEmbeddings: 0,
      },
    },
  ],
  async run(input, ctx) {
    const { searchMemories } = await import('../../recall/search-memories.js')
    const identity = identityOf(input, ctx)
    const found = await searchMemories(
      {
        query: input.query,
        layers: input.layers,
        tiers: input.tiers,
        tags: input.tags,
        threshold: input.threshold,
        limit: input.limit,
        candidates: candidatePool,
        identity,
        consumer: consumerOf(input, ctx),
      },
      {
        workspace: ctx.workspace,
        store: ctx.store,
        warn: ctx.warn,
        progress: (done, total) => ctx.progress?.({ phase: 'embedding new memories', done, total }),
        signal: ctx.signal,
      },
    )
    return { output: { success: true as const, ...found }, display: render(input.query, input.threshold, found, ctx.style) }
  },
})

function render(query: string, threshold: number, found: MemorySearch, style: Style): string {
  const { results, totalCount, searchMode, searchedLayers } = found
  if (found.abstained)
    return `No memory answers "${query}": none scored at least ${threshold.toFixed(2)} (${searchMode}), so the search abstained.${threshold > 0 ? ' Add --threshold 0 to see the nearest memories anyway.' : ''}`
  return [
    ...results.map(
      (result) =>
        `${style.cyan(result.memoryId)} ${style.dim(`[${result.layer}] ${result.score.toFixed(2)}`)}${result.shadows.length === 0 ? '' : style.dim(` (also in ${result.shadows.map((shadow) => shadow.layer).join(', ')})`)}${result.staleReason === undefined ? '' : ` ${style.yellow(`stale: ${result.staleReason}`)}`}\n  ${result.content.replaceAll('\n', '\n  ')}`,
    ),
    style.dim(`${results.length} of ${totalCount} ${totalCount === 1 ? 'memory' : 'memories'} (${searchMode}; layers ${searchedLayers.join(', ')})`),
  ].join('\n')
}
