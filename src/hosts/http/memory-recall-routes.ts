import { z } from 'zod'
import type { ErrorObject } from '../../errors.js'
import { contractRoute, placementFields, type ContractCallContext, type ContractFailure, type ContractRoute } from './memory-contract.js'
import { appliedDto, skippedRules, type EvaluateOutput } from './memory-rules-dto.js'

/* Seed 002's recall and recall_text, answered by memory_recall (and rules_evaluate for rules_context). */

/** The spec's caps, every one checked before the tool runs. */
const recallFields = {
  ...placementFields,
  consumer_agent_id: z.string().min(1).optional(),
  consumer_team_id: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(200).default(30),
  neighborhood_hops: z.union([z.literal(1), z.literal(2)]).default(2),
  max_nodes: z.number().int().min(1).max(200).default(50),
  max_edges: z.number().int().min(0).max(100).default(100),
  ranked_limit: z.number().int().min(1).max(500).default(100),
  min_edge_weight: z.number().min(0).max(1).default(0),
  min_edge_confidence: z.number().min(0).max(1).default(0).describe('Accepted; every mk edge is certain (confidence 1)'),
  include_meta: z.boolean().default(false),
  include_slots: z.boolean().default(false),
  include_slots_preview: z.boolean().default(false),
  slots_preview_keys: z.number().int().min(1).max(50).default(10),
  return_debug: z.boolean().default(false),
  include_embeddings: z.boolean().default(false),
  rules_context: z.record(z.string(), z.unknown()).optional(),
  rules_include_shadow: z.boolean().default(false),
  rules_limit: z.number().int().min(1).max(200).default(50),
}

type RecallRequest = z.output<z.ZodObject<typeof recallFields>>

/** mk has no salience score: the tier decay gives a memory stands for it. */
const salienceOfTier: Record<string, number> = { hot: 1, warm: 0.6, cold: 0.3, archive: 0.1 }

const nodeMetaDto = {
  raw_ref: z.string().nullable().optional(),
  evidence_ref: z.array(z.string()).nullable().optional(),
  embedding_status: z.string().nullable().optional(),
  embedding_model: z.string().nullable().optional(),
  memory_lane: z.string().nullable().optional(),
  producer_agent_id: z.string().nullable().optional(),
  owner_agent_id: z.string().nullable().optional(),
  owner_team_id: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  updated_at: z.string().nullable().optional(),
  last_activated: z.string().nullable().optional(),
  salience: z.number().nullable().optional(),
  importance: z.number().nullable().optional(),
  confidence: z.number().nullable().optional(),
  commit_id: z.string().nullable().optional(),
}

const nodeDto = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  text_summary: z.string(),
  ...nodeMetaDto,
  slots: z.record(z.string(), z.unknown()).optional().describe('Only with include_slots: layer, tier, tags, refs, status, path, ...'),
  slots_preview: z.record(z.string(), z.unknown()).optional().describe('Only with include_slots_preview: the first slots_preview_keys slots by key'),
})

const recallResponseFields = {
  tenant_id: z.string(),
  scope: z.string(),
  seeds: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      title: z.string(),
      text_summary: z.string(),
      tier: z.string(),
      salience: z.number().describe('mk has no salience score: 1 hot, 0.6 warm, 0.3 cold, 0.1 archive'),
      confidence: z.number().describe('The search evidence, as similarity'),
      similarity: z.number(),
    }),
  ),
  ranked: z.array(z.object({ id: z.string(), activation: z.number(), score: z.number() })).describe('At most ranked_limit'),
  subgraph: z.object({
    nodes: z.array(nodeDto),
    edges: z.array(z.object({ from_id: z.string(), to_id: z.string(), type: z.string(), weight: z.number(), commit_id: z.string().nullable().optional() })),
  }),
  context: z.object({ text: z.string(), items: z.array(z.string()), citations: z.array(z.record(z.string(), z.unknown())) }),
  rules: z
    .object({
      scope: z.string(),
      considered: z.number(),
      matched: z.number(),
      skipped_invalid_then: z.number(),
      invalid_then_sample: z.array(z.record(z.string(), z.unknown())),
      applied: appliedDto,
    })
    .optional()
    .describe('Only with rules_context'),
  debug: z
    .object({
      neighborhood_counts: z.object({ nodes: z.number(), edges: z.number() }),
      embeddings: z
        .array(z.object({ node_id: z.string(), dim: z.number(), preview: z.array(z.number()).max(16), sha256: z.string() }))
        .max(5)
        .optional(),
    })
    .optional()
    .describe('Only with return_debug'),
}

interface RecallNodeOutput {
  id: string
  type: string
  title: string
  summary: string
  meta?: Record<string, string | string[]>
}

interface RecallOutput {
  seeds: { id: string; type: string; title: string; text_summary: string; tier: string; similarity: number }[]
  ranked: { id: string; score: number }[]
  subgraph: { nodes: RecallNodeOutput[]; edges: { from_id: string; to_id: string; type: string; weight: number }[] }
  context: { text: string; items: string[]; citations: Record<string, unknown>[] }
  query_model: string
  debug?: { embeddings?: { id: string; dimensions: number; head: number[]; sha256: string }[] }
}

function metaOf(node: RecallNodeOutput): z.input<z.ZodObject<typeof nodeMetaDto>> {
  const meta = node.meta ?? {}
  const refs = meta.refs
  const path = meta.path
  return {
    raw_ref: typeof path === 'string' ? path : node.type === 'file' ? node.title : null,
    evidence_ref: Array.isArray(refs) ? refs : null,
    embedding_status: null,
    embedding_model: null,
    memory_lane: null,
    producer_agent_id: null,
    owner_agent_id: null,
    owner_team_id: null,
    created_at: null,
    updated_at: null,
    last_activated: null,
    salience: typeof meta.tier === 'string' ? (salienceOfTier[meta.tier] ?? null) : null,
    importance: null,
    confidence: null,
    commit_id: null,
  }
}

function nodeOf(node: RecallNodeOutput, request: RecallRequest): z.input<typeof nodeDto> {
  const slots = node.meta ?? {}
  const previewKeys = Object.keys(slots).sort().slice(0, request.slots_preview_keys)
  return {
    id: node.id,
    type: node.type,
    title: node.title,
    text_summary: node.summary,
    ...(request.include_meta ? metaOf(node) : {}),
    ...(request.include_slots ? { slots } : {}),
    ...(request.include_slots_preview ? { slots_preview: Object.fromEntries(previewKeys.map((key) => [key, slots[key]])) } : {}),
  }
}

/** The recall pipeline both routes share: memory_recall for the graph, rules_evaluate for rules_context. */
async function answerRecall(request: RecallRequest, query: Record<string, unknown>, { call, place, adminToken }: ContractCallContext) {
  const output = (await call('memory_recall', {
    ...query,
    limit: request.limit,
    neighborhood_hops: request.neighborhood_hops,
    max_nodes: request.max_nodes,
    max_edges: request.max_edges,
    // Slots are mk's node metadata: asked for whenever the contract's meta, slots or preview is.
    include_meta: request.include_meta || request.include_slots || request.include_slots_preview,
    return_debug: request.return_debug,
    include_embeddings: request.include_embeddings,
    ...(adminToken === undefined ? {} : { admin_token: adminToken }),
    ...(request.consumer_agent_id === undefined ? {} : { consumer_agent_id: request.consumer_agent_id }),
    ...(request.consumer_team_id === undefined ? {} : { consumer_team_id: request.consumer_team_id }),
  })) as RecallOutput
  const rules =
    request.rules_context === undefined
      ? undefined
      : ((await call('rules_evaluate', {
          context: request.rules_context,
          include_shadow: request.rules_include_shadow,
          limit: request.rules_limit,
        })) as EvaluateOutput)
  const nodes = output.subgraph.nodes.map((node) => nodeOf(node, request))
  const edges = output.subgraph.edges
    .filter((edge) => edge.weight >= request.min_edge_weight)
    .map((edge) => ({ ...edge, ...(request.include_meta ? { commit_id: null } : {}) }))
  const skipped = rules === undefined ? undefined : skippedRules(rules.skipped_invalid_then)
  return {
    output,
    answer: {
      ...place,
      seeds: output.seeds.map((seed) => ({ ...seed, salience: salienceOfTier[seed.tier] ?? 0, confidence: seed.similarity })),
      ranked: output.ranked.slice(0, request.ranked_limit).map((item) => ({ id: item.id, activation: item.score, score: item.score })),
      subgraph: { nodes, edges },
      context: output.context,
      ...(rules === undefined || skipped === undefined
        ? {}
        : {
            rules: {
              scope: place.scope,
              considered: rules.considered,
              matched: rules.matched,
              skipped_invalid_then: skipped.count,
              invalid_then_sample: skipped.sample,
              applied: rules.applied,
            },
          }),
      ...(request.return_debug
        ? {
            debug: {
              neighborhood_counts: { nodes: nodes.length, edges: edges.length },
              ...(output.debug?.embeddings === undefined
                ? {}
                : {
                    embeddings: output.debug.embeddings.map((item) => ({ node_id: item.id, dim: item.dimensions, preview: item.head, sha256: item.sha256 })),
                  }),
            },
          }
        : {}),
    },
  }
}

/** How long a client should wait before asking again when the embedding provider is unavailable (the provider said nothing). */
const unavailableRetrySeconds = 5

/**
 * The spec's upstream mapping: an embedding provider that throttles is 429, one that times out or
 * is unreachable 503 (both with retry-after), one whose answer is not embeddings 502. Only errors
 * of a remote provider (they name it in details.provider) are upstream failures.
 */
export function upstreamEmbeddingFailure(error: ErrorObject): ContractFailure | undefined {
  if (typeof error.details?.provider !== 'string') return undefined
  const retryAfter = error.details.retryAfterSeconds
  if (error.errorCode === 'RATE_LIMITED') {
    return { status: 429, code: 'upstream_embedding_rate_limited', retryAfterSeconds: typeof retryAfter === 'number' ? retryAfter : unavailableRetrySeconds }
  }
  if (error.errorCode === 'TIMEOUT' || error.errorCode === 'UNAUTHORIZED' || (error.errorCode === 'PROVIDER_ERROR' && error.retryable)) {
    return { status: 503, code: 'upstream_embedding_unavailable', retryAfterSeconds: unavailableRetrySeconds }
  }
  if (error.errorCode === 'PROVIDER_ERROR') return { status: 502, code: 'upstream_embedding_bad_response' }
  return undefined
}

const recall = contractRoute({
  path: '/v1/memory/recall',
  tool: 'memory_recall',
  tools: ['memory_recall', 'rules_evaluate'],
  request: z.strictObject({
    query_embedding: z.array(z.number()).min(1).max(8192).describe("The question's vector, in the server's embedding model (its dimension)"),
    ...recallFields,
  }),
  response: z.object(recallResponseFields),
  failure: upstreamEmbeddingFailure,
  async answer(request, context) {
    return (await answerRecall(request, { query_embedding: request.query_embedding }, context)).answer
  },
})

const recallText = contractRoute({
  path: '/v1/memory/recall_text',
  tool: 'memory_recall',
  tools: ['memory_recall', 'rules_evaluate'],
  request: z.strictObject({ query_text: z.string().min(1).max(2000).describe('The question; the server embeds it'), ...recallFields }),
  response: z.object({ ...recallResponseFields, query: z.object({ text: z.string(), embedding_provider: z.string() }) }),
  failure: upstreamEmbeddingFailure,
  async answer(request, context) {
    const { output, answer } = await answerRecall(request, { query: request.query_text }, context)
    return { ...answer, query: { text: request.query_text, embedding_provider: output.query_model } }
  },
})

export const recallRoutes: readonly ContractRoute[] = [recall, recallText]
