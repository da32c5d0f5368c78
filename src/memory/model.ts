import type { MemoryLayer } from '../config/layers.js'

export const memoryLanes = ['private', 'shared'] as const
export type MemoryLane = (typeof memoryLanes)[number]

/** Hot and warm memories are recalled by default; cold and archived ones only when asked. Decay moves memories down, rehydration up. */
export const memoryTiers = ['hot', 'warm', 'cold', 'archive'] as const
export type MemoryTier = (typeof memoryTiers)[number]

/** 0 for hot up to 3 for archive: a higher rank is further from default recall. */
export function tierRank(tier: MemoryTier): number {
  return memoryTiers.indexOf(tier)
}

/** The last move back up (mk memory rehydrate). */
export interface Rehydration {
  at: string
  from: MemoryTier
  to: MemoryTier
  reason: string | undefined
}

export type MetadataValue = string | number | boolean

/** One memory: the frontmatter and body of one markdown file. */
export interface MemoryRecord {
  /** `mem_` + ULID: unique, sortable by creation time. */
  id: string
  layer: MemoryLayer
  content: string
  tags: string[]
  /** ISO timestamps. */
  created: string
  updated: string
  /** Who wrote it: `agent:<id>`, `session:<id>`, `cli`. */
  source: string | undefined
  /** Knowledge ids this memory relates to. */
  refs: string[]
  supersedes: string[]
  /** ISO timestamp after which searches no longer return it. */
  expires: string | undefined
  /**
   * private: only its owners see it. In the agent, session and user layers the folder is already
   * private to its owner; in the project layer and wider (shared through git) a private memory
   * names its owner agent or team and other agents do not see it.
   */
  lane: MemoryLane
  /** The agent or session id of a partitioned layer, or the user name. */
  owner: string | undefined
  /** The agent that wrote it (MK_AGENT_ID at write time). */
  producerAgentId?: string | undefined
  /** Who may see a private memory in a shared layer: this agent, and the agents of this team. */
  ownerAgentId?: string | undefined
  ownerTeamId?: string | undefined
  metadata: Record<string, MetadataValue>
  /** New memories are hot; a file that names no tier is hot. */
  tier?: MemoryTier | undefined
  lastRehydrated?: Rehydration | undefined
  /** Consolidation found it restates this memory: recall leaves it out, the file and its history stay. */
  aliasOf?: string | undefined
  /** On the canonical memory: the ids consolidation made aliases of it. */
  mergedFrom?: string[] | undefined
}
