import type { GitIdentity } from '../git/identity.js'
import type { KnowledgeProblem } from '../knowledge/model.js'
import type { DeletedVersion } from '../memory/history.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import type { MemoryRecord, MemoryTier } from '../memory/model.js'
import type { AddOutcome, StoredMemory, UnreadableMemory } from '../memory/store.js'
import type { MemoryConsumer } from '../memory/visibility.js'

/** Who writes, and where a write's warnings go: every write is audited under its author. */
export interface WriteOptions {
  author?: GitIdentity | undefined
  warn(message: string): void
}

/** A new memory: deduplicated against the folder's memories the identity's index sees. */
export interface AddOptions extends WriteOptions {
  identity: MemoryIdentity
  /**
   * Embed the memory before it is written and index it with its vector, so no search finds it
   * without one (and embeds it a second time): for a process whose model is loaded. A store
   * may ignore it; the memory then waits for the next embedding.
   */
  embed?: boolean
}

/**
 * The memories of one workspace and their history, by folder (a layer, or one agent's or
 * session's partition of it). Every write that the history records returns its commit id; a
 * write the history does not record (a shared layer, committed by the person) returns undefined.
 */
export interface MemoryStore {
  /** The ids of a folder's memories, without reading them. */
  ids(folder: MemoryFolder): Promise<string[]>
  /** One memory of a folder; undefined when there is none; unreadable when it cannot be read as a memory. */
  read(folder: MemoryFolder, id: string): Promise<StoredMemory | UnreadableMemory | undefined>
  /**
   * The refs of these memories of one folder, by id (a memory with none, or none readable, is
   * absent): what a search's staleness marks are judged by, answered without reading each whole.
   */
  refs(folder: MemoryFolder, ids: readonly string[]): Promise<Map<string, string[]>>
  /** A memory by id in the folders visible to the identity. NOT_FOUND when there is none; INVALID_INPUT for a bad id. */
  find(identity: MemoryIdentity, id: string): Promise<StoredMemory>
  /** As find, and NOT_FOUND for a memory the consumer may not see (another agent's private memory). */
  findVisible(identity: MemoryIdentity, consumer: MemoryConsumer, id: string): Promise<StoredMemory>
  /** Add a memory; the same content in the same folder and visible to the same readers writes nothing. The index finds it at once. */
  add(folder: MemoryFolder, record: MemoryRecord, options: AddOptions): Promise<AddOutcome>
  /** Replace memories of one folder, as one change of the history. */
  rewrite(folder: MemoryFolder, records: readonly MemoryRecord[], message: string, options: WriteOptions): Promise<string | undefined>
  /** Move memories of one folder to other tiers, as one change of the history. */
  retier(folder: MemoryFolder, moves: readonly { id: string; tier: MemoryTier }[], message: string, options: WriteOptions): Promise<string | undefined>
  /** Delete a memory, keeping its last text in the history so it can be restored; the index forgets it at once. */
  delete(stored: StoredMemory, options: WriteOptions): Promise<string>
  /** Bring back the last deleted version of a memory into the folder it was deleted from. CONFLICT when it exists. */
  restore(identity: MemoryIdentity, id: string, options: WriteOptions): Promise<StoredMemory & { commit: string | undefined }>
  /** The last recorded deletion of a memory, undefined when none is recorded. */
  findDeletion(id: string): Promise<DeletedVersion | undefined>
  /** What a review of the shared layers must see: memories that cannot be served (malformed, private with no owner) and damaged store data; `read` counts what was looked at. */
  lint(): Promise<{ problems: KnowledgeProblem[]; read: number }>
  /** Where a memory is kept, as messages name it (a path relative to the workspace or $MK_HOME for files). */
  placeOf(stored: StoredMemory): Promise<string>
}
