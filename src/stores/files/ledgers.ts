import type { Workspace } from '../../config/workspace.js'
import type { GitIdentity } from '../../git/identity.js'
import type { RuleStats } from '../../knowledge/policy-rule/model.js'
import type { LedgerEntry, MemoryCounters } from '../../memory/counters.js'
import type { GraphEntity, GraphRelation } from '../../memory/graph.js'
import type { MemoryFolder } from '../../memory/locations.js'
import type { MemoryRecord, MemoryTier } from '../../memory/model.js'
import type { RecallReceipt } from '../../memory/receipts.js'
import type { StoredMemory } from '../../memory/store.js'
import type { OutcomeEvent, RecordedOutcome } from '../../policy-rules/outcomes.js'
import type { ActivationLedger, GraphLedger, GraphReader, OutcomeLedger, ReceiptLedger, TierLedger } from '../ledgers.js'
import type { WriteOptions } from '../memories.js'
import type { FilesIndex } from './search-index.js'

// Each ledger's module is loaded on its first use, as every tool did before the seam.
const graphStore = () => import('../../memory/graph-store.js')
const receipts = () => import('../../memory/receipts.js')
const outcomes = () => import('../../policy-rules/outcomes.js')

/** `.activations.jsonl` beside each folder's memories (merge=union). */
export class FilesActivations implements ActivationLedger {
  constructor(private readonly workspace: Workspace) {}

  async append(folder: MemoryFolder, entries: readonly LedgerEntry[]): Promise<void> {
    const { recordInLedger } = await import('../../memory/store.js')
    await recordInLedger(this.workspace, folder, entries)
  }

  async counters(folder: MemoryFolder): Promise<Map<string, MemoryCounters>> {
    const { readCounters } = await import('../../memory/activations.js')
    return readCounters(folder)
  }
}

/** `.tiers` beside each folder's memories. */
export class FilesTiers implements TierLedger {
  async read(folder: MemoryFolder): Promise<Map<string, MemoryTier>> {
    const { readTierTable } = await import('../../memory/tier-table.js')
    return readTierTable(folder)
  }
}

/** `.receipts.jsonl` in the project memory folder, hashed with the salt in the state folder. */
export class FilesReceipts implements ReceiptLedger {
  constructor(private readonly workspace: Workspace) {}

  async receiptFor(query: string, agentId: string | undefined, served: readonly { id: string; score: number }[]): Promise<RecallReceipt> {
    const { receiptFor, receiptSalt } = await receipts()
    return receiptFor(query, agentId, served, await receiptSalt(this.workspace))
  }

  async append(receipt: RecallReceipt): Promise<void> {
    await (await receipts()).appendReceipt(this.workspace, receipt)
  }

  async since(since: string | undefined): Promise<RecallReceipt[]> {
    return (await receipts()).readReceipts(this.workspace, since)
  }
}

/** Counted once per state of MK_HOME's history for the life of the process (the MCP server): every outcome is a commit, so HEAD names the state of every ledger. */
let cachedStats: { key: string; stats: Map<string, RuleStats> } | undefined

/** One JSON Lines ledger per rule under MK_HOME's `rule-outcomes/`, each record a commit. */
export class FilesOutcomes implements OutcomeLedger {
  constructor(private readonly workspace: Workspace) {}

  async record(events: readonly OutcomeEvent[], author: GitIdentity | undefined): Promise<RecordedOutcome> {
    const { outcomesFolder, recordOutcome } = await outcomes()
    return recordOutcome(this.workspace.mkHome, outcomesFolder(this.workspace), events, author)
  }

  async stats(): Promise<Map<string, RuleStats>> {
    const [{ outcomesFolder, readStats }, { headCommit }] = await Promise.all([outcomes(), import('../../git/head.js')])
    const { mkHome } = this.workspace
    const folder = outcomesFolder(this.workspace)
    const key = JSON.stringify([mkHome, folder, headCommit(mkHome)])
    if (cachedStats?.key !== key) cachedStats = { key, stats: await readStats(mkHome, folder) }
    return cachedStats.stats
  }
}

/** Entities are memory files tagged entity; relations are `.relations.jsonl` beside them. */
export class FilesGraph implements GraphLedger {
  constructor(
    private readonly workspace: Workspace,
    private readonly index: FilesIndex,
  ) {}

  async relations(folder: MemoryFolder): Promise<GraphRelation[]> {
    return (await graphStore()).readRelations(folder)
  }

  async appendRelations(folder: MemoryFolder, relations: readonly GraphRelation[]): Promise<void> {
    await (await graphStore()).appendRelations(this.workspace, folder, relations)
  }

  async replaceRelations(folder: MemoryFolder, keep: (relation: GraphRelation) => boolean): Promise<void> {
    await (await graphStore()).replaceRelations(this.workspace, folder, keep)
  }

  /** The entity memories the index names, read from their files. */
  async entities(folder: MemoryFolder, reader: GraphReader): Promise<(StoredMemory & { entity: GraphEntity })[]> {
    const [{ entityTag, readEntities }, index] = await Promise.all([
      graphStore(),
      this.index.refreshed({ identity: reader.identity, folders: [folder], knowledge: false, warn: reader.warn }),
    ])
    const ids = index
      .list({
        kind: 'memory',
        sources: [folder.key],
        tags: [entityTag],
        includeExpired: true,
        order: 'any',
        consumer: { agentId: reader.identity.agentId, teamId: reader.teamId },
      })
      .map((doc) => doc.id)
    return readEntities(this.workspace, folder, ids)
  }

  async addEntity(folder: MemoryFolder, entity: GraphEntity, source: string, options: WriteOptions): Promise<void> {
    const [{ addEntity, entityRecord }, { memoryDocument }, index] = await Promise.all([
      graphStore(),
      import('./indexing/refresh.js'),
      this.index.open(options.warn),
    ])
    const record = entityRecord(folder, entity, source)
    await addEntity(this.workspace, folder, record, (stored) => index.upsert([memoryDocument(stored.record, stored.folder)]), options.author)
  }

  async saveEntities(
    folder: MemoryFolder,
    changed: readonly { record: MemoryRecord; entity: GraphEntity }[],
    message: string,
    options: WriteOptions,
  ): Promise<MemoryRecord[]> {
    const [{ saveEntities }, { memoryDocument }] = await Promise.all([graphStore(), import('./indexing/refresh.js')])
    const records = await saveEntities(this.workspace, folder, changed, message, options.author)
    if (records.length > 0) (await this.index.open(options.warn)).upsert(records.map((record) => memoryDocument(record, folder)))
    return records
  }
}
