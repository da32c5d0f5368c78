import { createHash } from 'node:crypto'
import type { MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { visibleFoldersOfLayers, type MemoryIdentity } from '../memory/locations.js'
import { buildRecallGraph, type RecallEdge, type RecallNode, type RecallSources } from '../memory/recall-graph.js'
import { composeRecallPack, type PackCitation } from '../memory/recall-pack.js'
import { isVisibleTo, restrictionOf, type MemoryConsumer } from '../memory/visibility.js'
import { readKnowledgeItems } from '../knowledge/read-hits.js'
import { normalizeL2 } from '../search/embedding/vectors.js'
import type { DocumentIndex } from '../search/document-index.js'
import type { Store } from '../stores/store.js'
import { looksLikePath, staleReason } from '../sync/stale.js'
import type { TokenCounter } from '../token-count.js'

const minSeedScore = 0.3
const maxDebugBytes = 64 * 1024

export interface RecallRequest {
  query: string
  /** The caller's own query vector in the index's model (the HTTP contract's query_embedding): searched instead of embedding `query`. */
  queryVector?: readonly number[] | undefined
  layers: readonly MemoryLayer[] | undefined
  /** Seed memories from the search. */
  limit: number
  hops: number
  maxNodes: number
  maxEdges: number
  tokenBudget: number
  identity: MemoryIdentity
  consumer: MemoryConsumer
  /** How the seeds were found, for the debug channel (the caller has checked its access). */
  debug: boolean
  /** With debug: digests of at most 5 seed vectors. */
  embeddings: boolean
}

/** What recall needs from its caller: the index and the token counter stay open between calls. */
export interface RecallPlace {
  workspace: Workspace
  readOnly: boolean
  store: Store
  countTokens: Promise<TokenCounter>
  warn(message: string): void
  signal: AbortSignal
}

export interface RecallDebug {
  search_mode: 'hybrid' | 'fulltext'
  seed_count: number
  embeddings?: { id: string; dimensions: number; head: number[]; sha256: string }[]
}

export interface Recall {
  /** The seed memories in the graph, most similar first; similarity rounded to 3 places. */
  seeds: { node: Extract<RecallNode, { type: 'memory' }>; similarity: number }[]
  /** Every node, most relevant first. */
  ranked: { id: string; score: number }[]
  nodes: RecallNode[]
  edges: RecallEdge[]
  context: { text: string; items: string[]; citations: PackCitation[]; tokens: number }
  debug: RecallDebug | undefined
  /** The embedding model the search used; undefined when it searched full text only. */
  embeddingModel: string | undefined
}

/** A caller's query vector, checked against the index's model: the server's dimension, or a 400 that names it. */
function callerQueryVector(values: readonly number[], index: DocumentIndex): Float32Array {
  const model = index.embeddingModel
  if (model === undefined) {
    throw new MkError('INVALID_INPUT', 'query_embedding needs an embedding model, and this server searches full text only', {
      details: { field: 'query_embedding', hint: 'send the question as text (query, or query_text on /v1/memory/recall_text), or configure search.embedding' },
    })
  }
  if (values.length !== model.dimensions) {
    throw new MkError(
      'INVALID_INPUT',
      `query_embedding has ${values.length} dimensions; this server's embedding model (${model.modelId}) makes ${model.dimensions}`,
      {
        details: {
          field: 'query_embedding',
          expected_dimensions: model.dimensions,
          received_dimensions: values.length,
          hint: `send a vector of ${model.dimensions} numbers from ${model.modelId}, or the question as text`,
        },
      },
    )
  }
  return normalizeL2(Float32Array.from(values))
}

const round = (value: number): number => Math.round(value * 1000) / 1000

/** What the debug channel shows of a vector: enough to compare two, never enough to rebuild one. */
function embeddingDigests(vectors: readonly { id: string; vector: Float32Array }[]): NonNullable<RecallDebug['embeddings']> {
  return vectors.map(({ id, vector }) => ({
    id,
    dimensions: vector.length,
    head: [...vector.slice(0, 16)].map((value) => Math.round(value * 1e6) / 1e6),
    sha256: createHash('sha256')
      .update(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength))
      .digest('hex'),
  }))
}

/**
 * Recall for a question: the memories the search finds as evidence, their neighbourhood as a
 * graph, and a cited context text within the token budget; a receipt of what was served when
 * the workspace keeps them.
 */
export async function recall(request: RecallRequest, place: RecallPlace): Promise<Recall> {
  const { workspace, warn, signal } = place
  const { identity, consumer } = request
  const folders = visibleFoldersOfLayers(workspace, identity, request.layers)
  const folderByKey = new Map(folders.map((folder) => [folder.key, folder]))
  const { store } = place
  const index = await store.index.open(warn)
  await store.index.refresh({ identity, folders, warn })
  const queryVector = request.queryVector === undefined ? undefined : callerQueryVector(request.queryVector, index)
  const { searchMode } = await store.index.embedPending({ warn, signal })
  const memoryFilters = { kind: 'memory' as const, sources: folders.map((folder) => folder.key), consumer, statuses: ['hot', 'warm'] }
  // Seeds must be evidence (ADR 0010's scale: under 0.3 rarely answers); the graph brings in the rest.
  const hits = (
    await index.search({
      text: request.query,
      mode: queryVector === undefined ? searchMode : 'vector',
      limit: request.limit,
      textWeight: workspace.config.search.textWeight,
      filters: memoryFilters,
      ...(queryVector === undefined ? {} : { queryVector }),
    })
  ).filter((hit) => hit.score >= minSeedScore)
  const statusOf = await store.index.knowledgeStatus(identity, warn)
  const sources: RecallSources = {
    async memories(ids) {
      const nodes: Extract<RecallNode, { type: 'memory' }>[] = []
      for (const doc of await index.getMany(ids)) {
        const folder = folderByKey.get(doc.source ?? '')
        if (doc.kind !== 'memory' || folder === undefined) continue
        const read = await store.memories.read(folder, doc.id)
        if (read === undefined || !('record' in read) || !isVisibleTo(restrictionOf(read.record, folder), consumer)) continue
        const { record } = read
        nodes.push({
          id: record.id,
          type: 'memory',
          layer: record.layer,
          content: record.content,
          tier: record.tier ?? 'hot',
          tags: record.tags,
          refs: record.refs,
          aliasOf: record.aliasOf,
          mergedFrom: record.mergedFrom ?? [],
          stale: staleReason(record.refs, statusOf, workspace.root),
        })
      }
      return nodes
    },
    async knowledge(ids) {
      const docs = (await index.getMany(ids)).filter((doc) => doc.kind === 'knowledge')
      return (await readKnowledgeItems(workspace, docs, warn)).map((item) => ({
        id: item.id,
        type: 'knowledge' as const,
        title: item.title,
        status: item.status,
        path: item.path,
        summary: item.summary,
        supersededBy: item.supersededBy,
      }))
    },
    async taggedWith(tag, limit) {
      return (await index.list({ ...memoryFilters, tags: [tag], limit })).map((doc) => doc.id)
    },
    isFileRef: looksLikePath,
  }
  const built = await buildRecallGraph(hits, sources, { hops: request.hops, maxNodes: request.maxNodes, maxEdges: request.maxEdges })
  const countTokens = await place.countTokens
  const pack = composeRecallPack(request.query, built.nodes, built.scores, { tokenBudget: request.tokenBudget, countTokens })
  const seedIds = new Set(hits.map((hit) => hit.id))
  const seeds = built.nodes
    .flatMap((node) => (node.type === 'memory' && seedIds.has(node.id) ? [{ node, similarity: round(built.scores.get(node.id) ?? 0) }] : []))
    .sort((a, b) => b.similarity - a.similarity)
  const ranked = [...built.scores.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id, score]) => ({ id, score: round(score) }))
  const debug: RecallDebug | undefined = request.debug
    ? {
        search_mode: searchMode,
        seed_count: hits.length,
        ...(request.embeddings ? { embeddings: embeddingDigests(await index.vectorsOf(seeds.slice(0, 5).map((seed) => seed.node.id))) } : {}),
      }
    : undefined
  if (debug !== undefined && JSON.stringify(debug).length > maxDebugBytes) {
    throw new MkError('INVALID_INPUT', `the debug channel answers at most ${maxDebugBytes} bytes`, { details: { field: 'include_embeddings' } })
  }
  if (workspace.config.memory.receipts && !place.readOnly) {
    const served = pack.items.map((id) => ({ id, score: round(built.scores.get(id) ?? 0) }))
    await store.receipts.append(await store.receipts.receiptFor(request.query, consumer.agentId, served))
  }
  const embeddingModel = queryVector !== undefined || searchMode !== 'fulltext' ? index.embeddingModel?.modelId : undefined
  return { seeds, ranked, nodes: built.nodes, edges: built.edges, context: { ...pack, tokens: countTokens(pack.text) }, debug, embeddingModel }
}
