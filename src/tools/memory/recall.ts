import { z } from 'zod'
import { memoryTiers } from '../../memory/model.js'
import { edgeTypes, type RecallNode } from '../../memory/recall-graph.js'
import type { Recall } from '../../recall/recall.js'
import type { ToolContext } from '../context.js'
import { defineTool } from '../define.js'
import { requireDebugAccess } from '../debug-channel.js'
import { consumerFields, consumerOf, identityFields, identityOf, memoryLayerSchema, memoryQuerySchema } from './schemas.js'
import { oneLine } from '../../text.js'
import { MkError } from '../../errors.js'

/** The spec's hard cap: debug embeddings only for a recall of at most this many seeds. */
const maxDebugEmbeddingLimit = 20

const nodeSchema = z.strictObject({
  id: z.string(),
  type: z.enum(['memory', 'knowledge', 'file']),
  title: z.string(),
  summary: z.string(),
  meta: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe('Only with include_meta'),
})

function toNode(node: RecallNode, includeMeta: boolean): z.output<typeof nodeSchema> {
  if (node.type === 'memory') {
    return {
      id: node.id,
      type: 'memory',
      title: oneLine(node.content, 60),
      summary: oneLine(node.content, 200),
      ...(includeMeta
        ? {
            meta: {
              layer: node.layer,
              tier: node.tier,
              tags: [...node.tags],
              refs: [...node.refs],
              ...(node.stale === undefined ? {} : { stale: node.stale }),
            },
          }
        : {}),
    }
  }
  if (node.type === 'knowledge') {
    return {
      id: node.id,
      type: 'knowledge',
      title: node.title,
      summary: oneLine(node.summary ?? node.title, 200),
      ...(includeMeta ? { meta: { status: node.status, path: node.path, superseded_by: [...node.supersededBy] } } : {}),
    }
  }
  return { id: node.id, type: 'file', title: node.path, summary: node.path }
}

export const memoryRecall = defineTool({
  name: 'memory_recall',
  title: 'Recall what is known about a question',
  description:
    'Recall for a question: the most relevant memories (hybrid search, scoring 0.3 or more) and their neighbourhood (the knowledge items and files they ref, what superseded that knowledge, alias and merge links, memories sharing a tag) as a small graph, plus a ready context text within a token budget whose every line is cited. Stale memories are marked; superseded knowledge is replaced by what superseded it.',
  tier: 'read_only',
  idempotent: true,
  timeoutMs: 120_000,
  input: z.strictObject({
    query: memoryQuerySchema.optional().describe('What you want to know (or query_embedding)'),
    query_embedding: z
      .array(z.number())
      .min(1)
      .max(8192)
      .optional()
      .describe("Instead of query: the question's vector in the server's embedding model (its dimension, else a 400 naming it)"),
    layers: z.array(memoryLayerSchema).optional().describe('Only these layers (default every layer visible here)'),
    limit: z.number().int().min(1).max(200).default(30).describe('Seed memories from the search (1-200)'),
    neighborhood_hops: z.number().int().min(1).max(2).default(2).describe('How far from the seeds to follow links (1 or 2)'),
    max_nodes: z.number().int().min(1).max(200).default(50),
    max_edges: z.number().int().min(0).max(100).default(100),
    tokenBudget: z.number().int().min(50).max(32_000).default(1200).describe('Most tokens the context text may take (o200k)'),
    include_meta: z.boolean().default(false).describe('Add layer, tier, tags, refs and status to the nodes'),
    return_debug: z
      .boolean()
      .default(false)
      .describe(
        'Debug channel: also return how the seeds were found (needs the admin role or token on a team server with auth; else the admin token, or no token set outside production)',
      ),
    include_embeddings: z.boolean().default(false).describe('With return_debug: the first 16 dimensions and the sha256 of each of at most 5 seed vectors'),
    admin_token: z.string().min(1).optional().describe('MK_ADMIN_TOKEN of the server, for the debug channel'),
    ...identityFields,
    ...consumerFields,
  }),
  output: z.strictObject({
    seeds: z.array(
      z.strictObject({
        id: z.string(),
        type: z.literal('memory'),
        title: z.string(),
        text_summary: z.string(),
        tier: z.enum(memoryTiers),
        similarity: z.number(),
      }),
    ),
    ranked: z
      .array(z.strictObject({ id: z.string(), score: z.number() }))
      .describe('Every node, most relevant first: seeds by search score, neighbours by what reached them'),
    subgraph: z.strictObject({
      nodes: z.array(nodeSchema),
      edges: z.array(z.strictObject({ from_id: z.string(), to_id: z.string(), type: z.enum(edgeTypes), weight: z.number() })),
    }),
    context: z.strictObject({
      text: z.string().describe('Markdown to read: memories, then the knowledge they rest on, each line cited [n: ...]'),
      items: z.array(z.string()).describe('The ids in the text, in order'),
      citations: z.array(z.strictObject({ n: z.number().int(), id: z.string(), type: z.enum(['memory', 'knowledge']), source: z.string() })),
      tokens: z.number().int(),
    }),
    query_model: z.string().describe('The model the question was searched with; none when the search was full text only'),
    debug: z
      .strictObject({
        search_mode: z.enum(['hybrid', 'fulltext']),
        seed_count: z.number().int(),
        embeddings: z
          .array(z.strictObject({ id: z.string(), dimensions: z.number().int(), head: z.array(z.number()), sha256: z.string() }))
          .optional()
          .describe('At most 5 seeds: the first 16 dimensions and the hash of the whole vector, never the vector'),
      })
      .optional(),
  }),
  examples: [
    {
      title: 'Recall around a question',
      input: { query: 'which database do the orders use', tokenBudget: 300 },
      output: {
        seeds: [
          {
            id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
            type: 'memory',
            title: 'Orders live in Postgres',
            text_summary: 'Orders live in Postgres',
            tier: 'hot',
            similarity: 0.81,
          },
        ],
        ranked: [
          { id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', score: 0.81 },
          { id: 'adr-0001-use-postgresql', score: 0.41 },
        ],
        subgraph: {
          nodes: [
            { id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', type: 'memory', title: 'Orders live in Postgres', summary: 'Orders live in Postgres' },
            { id: 'adr-0001-use-postgresql', type: 'knowledge', title: 'Use PostgreSQL', summary: 'Use PostgreSQL' },
          ],
          edges: [{ from_id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', to_id: 'adr-0001-use-postgresql', type: 'refs', weight: 1 }],
        },
        context: {
          text: '# Recalled for: which database do the orders use\n\n## Memories\n- Orders live in Postgres [1: memory mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3, project]\n\n## Knowledge they rest on\n- Use PostgreSQL (accepted) [2: knowledge/adr/0001-use-postgresql.md]\n',
          items: ['mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', 'adr-0001-use-postgresql'],
          citations: [
            { n: 1, id: 'mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3', type: 'memory', source: 'project' },
            { n: 2, id: 'adr-0001-use-postgresql', type: 'knowledge', source: 'knowledge/adr/0001-use-postgresql.md' },
          ],
          tokens: 72,
        },
        query_model: 'bundled:universal-sentence-encoder-lite@1',
      },
    },
  ],
  async run(input, ctx) {
    const [{ recall }, { loadTokenCounter }] = await Promise.all([import('../../recall/recall.js'), import('../../token-count.js')])
    checkRecallInput(input, ctx)
    const recalled = await recall(
      {
        query: input.query ?? '(query embedding)',
        queryVector: input.query_embedding,
        layers: input.layers,
        limit: input.limit,
        hops: input.neighborhood_hops,
        maxNodes: input.max_nodes,
        maxEdges: input.max_edges,
        tokenBudget: input.tokenBudget,
        identity: identityOf(input, ctx),
        consumer: consumerOf(input, ctx),
        debug: input.return_debug,
        embeddings: input.include_embeddings,
      },
      { ...ctx, readOnly: ctx.runtime.readOnly, countTokens: ctx.resources.get('token-counter', loadTokenCounter) },
    )
    return { output: recallOutput(recalled, input.include_meta) }
  },
  render: (output) => output.context.text,
})

/** Exactly one of query and query_embedding; debug embeddings only for a few seeds, and only to a caller allowed the debug channel. */
function checkRecallInput(input: z.output<typeof memoryRecall.input>, ctx: ToolContext): void {
  if ((input.query === undefined) === (input.query_embedding === undefined)) {
    throw new MkError('INVALID_INPUT', 'query or query_embedding: give exactly one (the question as text, or its vector)', {
      details: { field: input.query === undefined ? 'query' : 'query_embedding', hint: 'pass query with the question' },
    })
  }
  if (input.return_debug && input.include_embeddings && input.limit > maxDebugEmbeddingLimit) {
    throw new MkError('INVALID_INPUT', `limit: debug embeddings are answered only with limit ${maxDebugEmbeddingLimit} or less, got ${input.limit}`, {
      details: { field: 'limit', hint: `pass limit ${maxDebugEmbeddingLimit} or less with include_embeddings` },
    })
  }
  if (input.return_debug) requireDebugAccess(input.admin_token, ctx.runtime)
}

function recallOutput(recalled: Recall, includeMeta: boolean) {
  const output = {
    seeds: recalled.seeds.map(({ node, similarity }) => ({
      id: node.id,
      type: 'memory' as const,
      title: oneLine(node.content, 60),
      text_summary: oneLine(node.content, 200),
      tier: memoryTiers.find((tier) => tier === node.tier) ?? 'hot',
      similarity,
    })),
    ranked: recalled.ranked,
    subgraph: { nodes: recalled.nodes.map((node) => toNode(node, includeMeta)), edges: recalled.edges },
    context: recalled.context,
    query_model: recalled.embeddingModel ?? 'none',
  }
  return { ...output, ...(recalled.debug === undefined ? {} : { debug: recalled.debug }) }
}
