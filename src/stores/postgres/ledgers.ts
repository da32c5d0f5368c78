import { randomBytes } from 'node:crypto'
import type { GitIdentity } from '../../git/identity.js'
import type { RuleStats } from '../../knowledge/policy-rule/model.js'
import { formatMemory } from '../../memory/format.js'
import { countLedger } from '../../memory/activations.js'
import type { LedgerEntry, MemoryCounters } from '../../memory/counters.js'
import { entityContent, entityOf, isEntityMemory, type GraphEntity, type GraphRelation } from '../../memory/graph.js'
import { entityRecord, entityTag } from '../../memory/graph-store.js'
import type { MemoryFolder } from '../../memory/locations.js'
import type { MemoryRecord, MemoryTier } from '../../memory/model.js'
import { receiptFor, type RecallReceipt } from '../../memory/receipts.js'
import { redactFields } from '../../memory/redact.js'
import type { StoredMemory } from '../../memory/store.js'
import { isVisibleTo, restrictionOf } from '../../memory/visibility.js'
import { countOutcomes, type OutcomeEvent, type RecordedOutcome } from '../../policy-rules/outcomes.js'
import type { ActivationLedger, GraphLedger, GraphReader, OutcomeLedger, ReceiptLedger, TierLedger } from '../ledgers.js'
import type { WriteOptions } from '../memories.js'
import { recordChange } from './history.js'
import { placeOfMemory, type PostgresMemories } from './memories.js'
import type { TenantScope } from './place.js'

/** Uses of memories, one row per entry, counted by the same function as the files store's ledger. */
export class PostgresActivations implements ActivationLedger {
  constructor(private readonly place: TenantScope) {}

  async append(folder: MemoryFolder, entries: readonly LedgerEntry[]): Promise<void> {
    // Reasons and run ids are the caller's words: redacted like every field mk writes.
    const { value: safe } = await redactFields(entries)
    await this.place.run(async (client) => {
      for (const entry of safe) {
        await client.query('INSERT INTO mk_activations (scope, folder, entry) VALUES ($1, $2, $3)', [this.place.scope, folder.key, JSON.stringify(entry)])
      }
    })
  }

  async counters(folder: MemoryFolder): Promise<Map<string, MemoryCounters>> {
    const rows = await this.place.run((client) =>
      client.query<{ entry: unknown }>('SELECT entry FROM mk_activations WHERE scope = $1 AND folder = $2 ORDER BY seq', [this.place.scope, folder.key]),
    )
    return countLedger(rows.rows.map((row) => row.entry))
  }
}

export class PostgresTiers implements TierLedger {
  constructor(private readonly place: TenantScope) {}

  async read(folder: MemoryFolder): Promise<Map<string, MemoryTier>> {
    const rows = await this.place.run((client) =>
      client.query<{ id: string; tier: MemoryTier }>('SELECT id, tier FROM mk_tiers WHERE scope = $1 AND folder = $2', [this.place.scope, folder.key]),
    )
    return new Map(rows.rows.map((row) => [row.id, row.tier]))
  }
}

const saltBytes = 32

/** Receipts in order of arrival; the query is hashed with the scope's salt, made once by whichever replica asks first. */
export class PostgresReceipts implements ReceiptLedger {
  constructor(private readonly place: TenantScope) {}

  private async salt(): Promise<Buffer> {
    return this.place.run(async (client) => {
      await client.query('INSERT INTO mk_receipt_salts (scope, salt) VALUES ($1, $2) ON CONFLICT DO NOTHING', [this.place.scope, randomBytes(saltBytes)])
      const rows = await client.query<{ salt: Buffer }>('SELECT salt FROM mk_receipt_salts WHERE scope = $1', [this.place.scope])
      const salt = rows.rows[0]?.salt
      if (salt === undefined) throw new Error('the receipt salt was not stored')
      return salt
    })
  }

  async receiptFor(query: string, agentId: string | undefined, served: readonly { id: string; score: number }[]): Promise<RecallReceipt> {
    return receiptFor(query, agentId, served, await this.salt())
  }

  async append(receipt: RecallReceipt): Promise<void> {
    await this.place.run((client) =>
      client.query('INSERT INTO mk_receipts (scope, at, receipt) VALUES ($1, $2, $3)', [this.place.scope, receipt.at, JSON.stringify(receipt)]),
    )
  }

  async since(since: string | undefined): Promise<RecallReceipt[]> {
    const rows = await this.place.run((client) =>
      client.query<{ receipt: RecallReceipt }>('SELECT receipt FROM mk_receipts WHERE scope = $1 AND ($2::text IS NULL OR at >= $2) ORDER BY seq', [
        this.place.scope,
        since ?? null,
      ]),
    )
    // JSON has no undefined: an anonymous recall's agent comes back as it went in.
    return rows.rows.map(({ receipt }) => ({ ...receipt, agent_id: receipt.agent_id ?? undefined }))
  }
}

/** Rule outcomes, each recording one change of the history; counted by the same function as the files store's ledgers. */
export class PostgresOutcomes implements OutcomeLedger {
  constructor(private readonly place: TenantScope) {}

  async record(recorded: readonly OutcomeEvent[], author: GitIdentity | undefined): Promise<RecordedOutcome> {
    // The run id, the note and the tool are the caller's words: they reach the ledger and the history redacted.
    const { value: events } = await redactFields(recorded)
    const first = events[0]
    const message = `rule outcome ${first?.outcome ?? 'neutral'} for ${first?.tool ?? '?'}: ${events.map((event) => event.rule_id).join(', ')}`
    const commit = await this.place.run(async (client) => {
      const id = await recordChange(client, this.place.scope, message, author, [{ op: 'outcome', folder: undefined, memoryId: undefined, text: undefined }])
      for (const event of events) {
        await client.query('INSERT INTO mk_outcomes (scope, commit_id, rule_id, outcome, event) VALUES ($1, $2, $3, $4, $5)', [
          this.place.scope,
          id,
          event.rule_id,
          event.outcome,
          JSON.stringify(event),
        ])
      }
      return id
    })
    return { commit, files: [] }
  }

  async stats(): Promise<Map<string, RuleStats>> {
    const rows = await this.place.run((client) =>
      client.query<{ event: unknown }>("SELECT event FROM mk_outcomes WHERE scope = $1 AND outcome IN ('positive', 'negative') ORDER BY seq", [
        this.place.scope,
      ]),
    )
    const stats = new Map<string, RuleStats>()
    countOutcomes(
      rows.rows.map((row) => row.event),
      stats,
    )
    return stats
  }
}

/** Entities are memory rows tagged entity; relations are rows of their own, in order of arrival. */
export class PostgresGraph implements GraphLedger {
  constructor(
    private readonly place: TenantScope,
    private readonly memories: PostgresMemories,
  ) {}

  async relations(folder: MemoryFolder): Promise<GraphRelation[]> {
    const rows = await this.place.run((client) =>
      client.query<{ relation: GraphRelation }>('SELECT relation FROM mk_relations WHERE scope = $1 AND folder = $2 ORDER BY seq', [
        this.place.scope,
        folder.key,
      ]),
    )
    return rows.rows.map((row) => row.relation)
  }

  async appendRelations(folder: MemoryFolder, relations: readonly GraphRelation[]): Promise<void> {
    await this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      for (const relation of relations) {
        await client.query('INSERT INTO mk_relations (scope, folder, relation) VALUES ($1, $2, $3)', [this.place.scope, folder.key, JSON.stringify(relation)])
      }
    })
  }

  async replaceRelations(folder: MemoryFolder, keep: (relation: GraphRelation) => boolean): Promise<void> {
    await this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      const rows = await client.query<{ seq: string; relation: GraphRelation }>('SELECT seq, relation FROM mk_relations WHERE scope = $1 AND folder = $2', [
        this.place.scope,
        folder.key,
      ])
      const dropped = rows.rows.filter((row) => !keep(row.relation)).map((row) => row.seq)
      if (dropped.length > 0) await client.query('DELETE FROM mk_relations WHERE scope = $1 AND seq = ANY($2::bigint[])', [this.place.scope, dropped])
    })
  }

  async entities(folder: MemoryFolder, reader: GraphReader): Promise<(StoredMemory & { entity: GraphEntity })[]> {
    const consumer = { agentId: reader.identity.agentId, teamId: reader.teamId }
    const rows = await this.place.run((client) =>
      client.query<{ record: MemoryRecord }>("SELECT record FROM mk_memories WHERE scope = $1 AND folder = $2 AND record->'tags' ? $3 ORDER BY id", [
        this.place.scope,
        folder.key,
        entityTag,
      ]),
    )
    return rows.rows
      .map((row) => row.record)
      .filter((record) => isEntityMemory(record) && isVisibleTo(restrictionOf(record, folder), consumer))
      .map((record) => ({ record, folder, file: placeOfMemory(folder, record.id), entity: entityOf(record) }))
  }

  async addEntity(folder: MemoryFolder, entity: GraphEntity, source: string, options: WriteOptions): Promise<void> {
    const record = entityRecord(folder, entity, source)
    await this.place.run(async (client) => {
      await this.place.lockFolder(client, folder.key)
      await this.memories.insert(client, folder, record)
      await recordChange(client, this.place.scope, `add ${record.id} (${folder.key})`, options.author, [
        { op: 'add', folder: folder.key, memoryId: record.id, text: formatMemory(record) },
      ])
    })
  }

  async saveEntities(
    folder: MemoryFolder,
    changed: readonly { record: MemoryRecord; entity: GraphEntity }[],
    message: string,
    options: WriteOptions,
  ): Promise<MemoryRecord[]> {
    const records = changed.map(({ record, entity }) => ({ ...record, content: entityContent(entity), updated: new Date().toISOString() }))
    await this.memories.rewrite(folder, records, message, options)
    return records
  }
}
