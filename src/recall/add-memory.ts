import type { MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import type { GitIdentity } from '../git/identity.js'
import { folderForLayer, type MemoryIdentity } from '../memory/locations.js'
import type { MemoryLane } from '../memory/model.js'
import type { DocumentIndex } from '../search/document-index.js'
import type { Store } from '../stores/store.js'

/** Cosine similarity above which another memory is reported as a near duplicate. */
const similarThreshold = 0.85

export interface AddMemoryRequest {
  content: string
  layer: MemoryLayer
  tags: string[]
  metadata: Record<string, string | number | boolean>
  refs: string[]
  /** ISO date or date-time, already checked to be in the future. */
  expires: string | undefined
  lane: MemoryLane | undefined
  ownerAgentId: string | undefined
  ownerTeamId: string | undefined
  identity: MemoryIdentity
  /** The writer's team: restricted neighbours of that team are compared too. */
  teamId: string | undefined
}

export interface AddMemoryPlace {
  workspace: Workspace
  store: Store
  author: GitIdentity | undefined
  warn(message: string): void
}

export interface AddedMemory {
  memoryId: string
  deduplicated: boolean
  redactions: { kind: string; count: number }[]
  similar: { memoryId: string; content: string; score: number }[]
  contradicts: { memoryId: string; content: string; reason: string }[]
  /** The MK_HOME history commit of a private write; undefined for a shared layer or a duplicate. */
  commit: string | undefined
}

/** A write embeds what waits for a vector only when that is little more than itself; a bulk of new files waits for the next search. */
const mostEmbeddedByAWrite = 16

/** The new memory's vector, embedded with the few others waiting for one; undefined when more wait or the index has none for it. */
async function embeddedNow(place: AddMemoryPlace, index: DocumentIndex, memoryId: string): Promise<Float32Array | undefined> {
  if ((await index.pendingCount()) > mostEmbeddedByAWrite) return undefined
  await place.store.index.embedPending({ warn: place.warn })
  return (await index.vectorsOf([memoryId]))[0]?.vector
}

function sourceOf(identity: MemoryIdentity): string {
  if (identity.agentId !== undefined) return `agent:${identity.agentId}`
  return identity.sessionId !== undefined ? `session:${identity.sessionId}` : 'cli'
}

/**
 * Remember a fact: every field through the one redaction pass, refs that name nothing warned
 * about, the same content in the folder stored once, and the memories it restates or contradicts.
 */
export async function addMemory(request: AddMemoryRequest, place: AddMemoryPlace): Promise<AddedMemory> {
  const [{ redactFields }, { newMemoryId }, { unownedPrivateProblem }] = await Promise.all([
    import('../memory/redact.js'),
    import('../memory/ids.js'),
    import('../memory/visibility.js'),
  ])
  const { identity } = request
  const { store, warn } = place
  const folder = folderForLayer(place.workspace, identity, request.layer)
  const ownership = {
    lane: request.lane ?? (folder.private ? ('private' as const) : ('shared' as const)),
    ownerAgentId: request.ownerAgentId,
    ownerTeamId: request.ownerTeamId,
  }
  if (unownedPrivateProblem(ownership, folder) !== undefined) {
    throw new MkError('INVALID_INPUT', `a private memory in the ${request.layer} layer needs owner_agent_id or owner_team_id: otherwise nobody could see it`, {
      details: { field: 'lane', hint: 'pass --owner-agent ID or --owner-team ID, or --lane shared' },
    })
  }
  // Every field that is written goes through the one redaction pass, not only the content.
  const { value: written, redactions } = await redactFields({ content: request.content, tags: request.tags, metadata: request.metadata, refs: request.refs })
  const { content } = written
  const index = await store.index.open(warn)
  if (written.refs.length > 0) {
    const { unresolvedRefs } = await import('../sync/stale.js')
    for (const { ref, missing } of unresolvedRefs(written.refs, await store.index.knowledgeStatus(identity, warn), place.workspace.root)) {
      warn(`ref ${ref} names no ${missing}${missing === 'file' ? ' in the workspace' : ' here'}; searches show this memory as stale until it exists`)
    }
  }
  const now = new Date().toISOString()
  const outcome = await store.memories.add(
    folder,
    {
      id: newMemoryId(),
      layer: request.layer,
      content,
      tags: [...new Set(written.tags)],
      created: now,
      updated: now,
      source: sourceOf(identity),
      refs: written.refs,
      supersedes: [],
      expires: request.expires === undefined ? undefined : new Date(request.expires).toISOString(),
      ...ownership,
      owner: folder.owner,
      producerAgentId: identity.agentId,
      metadata: written.metadata,
    },
    // A process with the model loaded indexes the memory with its vector, in the same write.
    { identity, author: place.author, warn, embed: index.embedderWarm },
  )
  const memoryId = outcome.deduplicated ? outcome.id : outcome.stored.record.id
  const filters = { kind: 'memory' as const, sources: [folder.key], consumer: { agentId: identity.agentId, teamId: request.teamId } }
  // Words find restatements without a model; only a process that already has the model loaded (the MCP server, `mk serve`) adds meaning: the write path never loads it.
  // That process embeds the new memory now, and asks for its neighbours with that vector: one
  // embedding instead of two, and the searches after it find it by meaning without embedding it first.
  const ownVector = index.embedderWarm && !outcome.deduplicated ? await embeddedNow(place, index, memoryId) : undefined
  const [byWords, byMeaning] = await Promise.all([
    index.search({ text: content, mode: 'fulltext', limit: 10, filters }),
    // One more than wanted: the new memory is its own nearest, and is left out below.
    index.embedderWarm ? index.nearDuplicates(content, filters, similarThreshold, 6, ownVector) : Promise.resolve([]),
  ])
  const cosineOf = new Map(byMeaning.map((hit) => [hit.id, hit.score]))
  const neighbours = (await index.getMany([...new Set([...byMeaning, ...byWords].map((hit) => hit.id))].filter((id) => id !== memoryId))).map((doc) => ({
    memoryId: doc.id,
    content: doc.content,
    cosine: cosineOf.get(doc.id),
  }))
  const { classifyNeighbours } = await import('../memory/neighbours.js')
  const found = classifyNeighbours(content, neighbours, similarThreshold)
  return {
    memoryId,
    deduplicated: outcome.deduplicated,
    redactions,
    similar: found.similar.map((entry) => ({ memoryId: entry.memoryId, content: entry.content, score: entry.score })),
    contradicts: found.contradicts.map((entry) => ({ memoryId: entry.memoryId, content: entry.content, reason: entry.reason })),
    commit: outcome.deduplicated ? undefined : outcome.commit,
  }
}
