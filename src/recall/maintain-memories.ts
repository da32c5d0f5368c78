import type { MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import type { GitIdentity } from '../git/identity.js'
import { isMemoryTier } from '../memory/decay.js'
import { visibleFoldersOfLayers, type MemoryIdentity } from '../memory/locations.js'
import { planDecay } from '../memory/maintain.js'
import type { MemoryTier } from '../memory/model.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import type { Store } from '../stores/store.js'

export interface MaintenanceRequest {
  /** Write the moves; otherwise only report them. */
  apply: boolean
  layers: readonly MemoryLayer[] | undefined
  identity: MemoryIdentity
  consumer: MemoryConsumer
}

export interface MaintenancePlace {
  workspace: Workspace
  store: Store
  author: GitIdentity | undefined
  warn(message: string): void
}

export interface Maintenance {
  scanned: number
  moves: { memoryId: string; layer: MemoryLayer; from: MemoryTier; to: MemoryTier; idleDays: number }[]
  applied: boolean
  /** The MK_HOME history commits of private layers. */
  commits: string[]
}

/** Move the visible memories that went unused down a tier (hot, warm, cold, archive), by the workspace's decay settings. */
export async function maintainMemories(request: MaintenanceRequest, place: MaintenancePlace): Promise<Maintenance> {
  const { identity } = request
  const { store, warn } = place
  const folders = visibleFoldersOfLayers(place.workspace, identity, request.layers)
  const index = await store.index.open(warn)
  await store.index.refresh({ identity, folders, knowledge: false, warn })
  // The index already holds every memory's tier and age: no file is read unless it moves.
  const documents = await index.list({
    kind: 'memory',
    sources: folders.map((folder) => folder.key),
    consumer: request.consumer,
    includeExpired: true,
    order: 'any',
  })
  const counters = new Map(await Promise.all(folders.map(async (folder) => [folder.key, await store.activations.counters(folder)] as const)))
  const memories = documents.map((doc) => ({
    id: doc.id,
    folderKey: doc.source ?? '',
    tier: isMemoryTier(doc.status) ? doc.status : 'hot',
    updatedMs: doc.updatedAt,
  }))
  const moves = planDecay(memories, counters, Date.now(), place.workspace.config.memory.decay)
  const commits: string[] = []
  if (request.apply) {
    for (const folder of folders) {
      const here = moves.filter((move) => move.folderKey === folder.key).map((move) => ({ id: move.memoryId, tier: move.to }))
      if (here.length === 0) continue
      const commit = await store.memories.retier(folder, here, `decay ${here.length} memories (${folder.key})`, { author: place.author, warn })
      if (commit !== undefined) commits.push(commit)
    }
  }
  const layerOf = new Map(folders.map((folder) => [folder.key, folder.layer]))
  return {
    scanned: documents.length,
    moves: moves.map((move) => ({
      memoryId: move.memoryId,
      layer: layerOf.get(move.folderKey) ?? 'project',
      from: move.from,
      to: move.to,
      idleDays: move.idleDays,
    })),
    applied: request.apply,
    commits,
  }
}
