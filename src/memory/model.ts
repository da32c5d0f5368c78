import type { MemoryLayer } from '../config/layers.js'

export const memoryLanes = ['private', 'shared'] as const
export type MemoryLane = (typeof memoryLanes)[number]

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
  lane: MemoryLane
  /** The agent or session id of a partitioned layer, or the user name. */
  owner: string | undefined
  metadata: Record<string, MetadataValue>
}
