import type { GitIdentity } from '../git/identity.js'
import type { RuleStats } from '../knowledge/policy-rule/model.js'
import type { LedgerEntry, MemoryCounters } from '../memory/counters.js'
import type { GraphEntity, GraphRelation } from '../memory/graph.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import type { MemoryRecord, MemoryTier } from '../memory/model.js'
import type { StoredMemory } from '../memory/store.js'
import type { RecallReceipt } from '../memory/receipts.js'
import type { OutcomeEvent, RecordedOutcome } from '../policy-rules/outcomes.js'
import type { WriteOptions } from './memories.js'

/** Uses of memories and how they went, append-only per folder: counters are derived, never stored on the memory. */
export interface ActivationLedger {
  /** Append uses (their reasons and run ids redacted); many agents append at once. */
  append(folder: MemoryFolder, entries: readonly LedgerEntry[]): Promise<void>
  /** The counters of every memory the folder's ledger names. */
  counters(folder: MemoryFolder): Promise<Map<string, MemoryCounters>>
}

/** The tier of each memory a folder's decay or rehydration moved; a memory not listed is in the tier it was written with. */
export interface TierLedger {
  read(folder: MemoryFolder): Promise<Map<string, MemoryTier>>
}

/** What agents were told by recall, append-only per workspace, with the query kept as a keyed hash. */
export interface ReceiptLedger {
  /** The receipt of one recall: the served ids and scores, the query hashed with the workspace's key. */
  receiptFor(query: string, agentId: string | undefined, served: readonly { id: string; score: number }[]): Promise<RecallReceipt>
  append(receipt: RecallReceipt): Promise<void>
  /** Receipts at or after `since` (ISO), oldest first. */
  since(since: string | undefined): Promise<RecallReceipt[]>
}

/** How each policy rule's decisions turned out, append-only, recorded as one change of the history. */
export interface OutcomeLedger {
  record(events: readonly OutcomeEvent[], author: GitIdentity | undefined): Promise<RecordedOutcome>
  /** Positive and negative outcomes per rule id (a store may keep them between calls while nothing was recorded). */
  stats(): Promise<Map<string, RuleStats>>
}

/** Who reads a graph: entities are memories, seen only by those who may see them. */
export interface GraphReader {
  identity: MemoryIdentity
  teamId: string | undefined
  warn(message: string): void
}

/** The knowledge graph of one folder: entities are memories (tagged entity), relations are edges between entity names. */
export interface GraphLedger {
  relations(folder: MemoryFolder): Promise<GraphRelation[]>
  appendRelations(folder: MemoryFolder, relations: readonly GraphRelation[]): Promise<void>
  /** Keep only the relations `keep` accepts. */
  replaceRelations(folder: MemoryFolder, keep: (relation: GraphRelation) => boolean): Promise<void>
  /** The folder's entity memories the reader may see, oldest first. */
  entities(folder: MemoryFolder, reader: GraphReader): Promise<(StoredMemory & { entity: GraphEntity })[]>
  /** Add a new entity memory (never deduplicated: names are checked by the caller). */
  addEntity(folder: MemoryFolder, entity: GraphEntity, source: string, options: WriteOptions): Promise<void>
  /** Rewrite entities whose observations changed, as one change of the history, the index kept in step; returns the records written. */
  saveEntities(
    folder: MemoryFolder,
    changed: readonly { record: MemoryRecord; entity: GraphEntity }[],
    message: string,
    options: WriteOptions,
  ): Promise<MemoryRecord[]>
}
