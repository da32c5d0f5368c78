import { z } from 'zod'
import type { MemoryLayer } from '../../config/layers.js'
import { memoryTiers } from '../../memory/model.js'
import { defineTool } from '../define.js'
import { oneOrMany } from '../knowledge/schemas.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryLayerSchema, memoryQuerySchema, scoresSchema } from './schemas.js'
import { knowledgeStatusLookup, workspaceIndex } from '../search-index.js'

/** How many ranked memories a search looks at before it collapses layers and applies the limit. */
const candidatePool = 1000

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memories',
  description:
    'Find memories by meaning and by words (hybrid: BM25 full text fused with embedding similarity), across every layer visible here or the layers given. Expired memories are not returned. Each result says how it scored.',
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
      .optional()
      .describe('Only results scoring at least this (0-1; scores mean the same for every query: 0.3 drops weak matches, 0.6 keeps what is usually the answer)'),
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
          .describe('Evidence that this memory answers the query, 0-1, on one scale for every query: 0.6 and above is usually the answer, below 0.3 rarely'),
        scores: scoresSchema,
        tags: z.array(z.string()),
        stale: z.boolean().describe('True when a ref names a knowledge item that is superseded, deprecated or gone, or a workspace file that no longer exists'),
        staleReason: z.string().optional().describe('Why it is stale'),
        shadows: z
          .array(z.strictObject({ memoryId: z.string(), layer: memoryLayerSchema }))
          .describe('The same fact stored in less specific layers, hidden behind this one'),
      }),
    ),
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
            score: 0.74,
            scores: { text: 0.72, vector: 0.79 },
            tags: ['database'],
            stale: false,
            shadows: [],
          },
        ],
        totalCount: 1,
        searchedLayers: ['user', 'project'],
        searchMode: 'hybrid',
        pendingEmbeddings: 0,
      },
    },
  ],
  async run(input, ctx) {
    const [{ visibleFoldersOfLayers }, { ensureFresh, embedBeforeSearch }] = await Promise.all([
      import('../../memory/locations.js'),
      import('../../indexing/workspace-index.js'),
    ])
    const identity = identityOf(input, ctx)
    const folders = visibleFoldersOfLayers(ctx.workspace, identity, input.layers)
    for (const layer of input.layers ?? []) {
      if (!folders.some((folder) => folder.layer === layer))
        ctx.warn(
          `the ${layer} layer is not visible here (agent and session layers need --agent or --session; team, org and company need a knowledge source of that layer)`,
        )
    }
    const index = await workspaceIndex(ctx)
    await ensureFresh(index, ctx.workspace, { identity, folders, knowledge: false, warn: ctx.warn })
    const { searchMode, pendingEmbeddings } = await embedBeforeSearch(index, {
      warn: ctx.warn,
      progress: (done, total) => ctx.progress?.({ phase: 'embedding new memories', done, total }),
      signal: ctx.signal,
    })
    // Ranked past the limit, so that copies of one fact in several layers collapse into one
    // result and totalCount says how many matched, not how many were shown.
    const hits = await index.search({
      text: input.query,
      mode: searchMode,
      limit: candidatePool,
      textWeight: ctx.workspace.config.search.textWeight,
      filters: {
        kind: 'memory',
        sources: folders.map((folder) => folder.key),
        consumer: consumerOf(input, ctx),
        statuses: input.tiers,
        ...(input.tags === undefined ? {} : { tags: input.tags }),
      },
    })
    const kept = hits.filter((hit) => input.threshold === undefined || hit.score >= input.threshold)
    // Ranked and grouped on what the hits carry; only the page shown is read whole.
    // Each layer checked once, not once per candidate.
    const layers = new Map<string, MemoryLayer>()
    const layerOf = (layer: string): MemoryLayer => {
      let parsed = layers.get(layer)
      if (parsed === undefined) {
        parsed = memoryLayerSchema.parse(layer)
        layers.set(layer, parsed)
      }
      return parsed
    }
    const found = kept.map((hit) => ({
      memoryId: hit.id,
      layer: layerOf(hit.layer),
      source: hit.source,
      dedupKey: hit.dedupKey,
      score: round(hit.score),
      scores: roundScores(hit.scores),
    }))
    const { collapseAcrossLayers } = await import('../../search/layer-precedence.js')
    const collapsed = collapseAcrossLayers(found)
    const page = collapsed.slice(0, input.limit)
    const documents = new Map(index.getMany(page.map((result) => result.memoryId)).map((doc) => [doc.id, doc]))
    const results = page.flatMap(({ memoryId, layer, score, scores, shadows }) => {
      const doc = documents.get(memoryId)
      return doc === undefined ? [] : [{ memoryId, content: doc.content, layer, score, scores, tags: [...doc.tags], shadows }]
    })
    // A match shares a word with the query or passes the threshold; meaning-only neighbours count when shown.
    const totalCount = collapsed.filter(
      (result, position) => position < input.limit || result.scores.text !== undefined || input.threshold !== undefined,
    ).length
    // sync: a memory whose refs point at retired knowledge or a deleted file is flagged stale.
    const { staleReasons } = await import('../../sync/stale.js')
    const folderByKey = new Map(folders.map((folder) => [folder.key, folder]))
    const sourceOf = new Map(page.map((result) => [result.memoryId, result.source]))
    const reasons = await staleReasons(
      ctx.workspace,
      results.flatMap((result) => {
        const folder = folderByKey.get(sourceOf.get(result.memoryId) ?? '')
        return folder === undefined ? [] : [{ id: result.memoryId, folder }]
      }),
      () => knowledgeStatusLookup(index, ctx, identity),
    )
    const marked = results.map((result) => {
      const staleReason = reasons.get(result.memoryId)
      return { ...result, stale: staleReason !== undefined, ...(staleReason === undefined ? {} : { staleReason }) }
    })
    const searchedLayers = [...new Set(folders.map((folder) => folder.layer))]
    const { style } = ctx
    const display =
      results.length === 0
        ? `No memories match "${input.query}" (${searchMode}).`
        : [
            ...marked.map(
              (result) =>
                `${style.cyan(result.memoryId)} ${style.dim(`[${result.layer}] ${result.score.toFixed(2)}`)}${result.shadows.length === 0 ? '' : style.dim(` (also in ${result.shadows.map((shadow) => shadow.layer).join(', ')})`)}${result.staleReason === undefined ? '' : ` ${style.yellow(`stale: ${result.staleReason}`)}`}\n  ${result.content.replaceAll('\n', '\n  ')}`,
            ),
            style.dim(`${results.length} of ${totalCount} ${totalCount === 1 ? 'memory' : 'memories'} (${searchMode}; layers ${searchedLayers.join(', ')})`),
          ].join('\n')
    return { output: { success: true as const, results: marked, totalCount, searchedLayers, searchMode, pendingEmbeddings }, display }
  },
})

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

function roundScores(scores: { text?: number; vector?: number }): { text?: number; vector?: number } {
  const rounded: { text?: number; vector?: number } = {}
  if (scores.text !== undefined) rounded.text = round(scores.text)
  if (scores.vector !== undefined) rounded.vector = round(scores.vector)
  return rounded
}
