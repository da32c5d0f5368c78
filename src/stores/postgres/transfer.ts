import type { PoolClient } from 'pg'
import type { MemoryLayer } from '../../config/layers.js'
import type { Workspace } from '../../config/workspace.js'
import { MkError } from '../../errors.js'
import { formatMemory, parseMemory } from '../../memory/format.js'
import { folderOfKey, type MemoryFolder } from '../../memory/locations.js'
import type { MemoryRecord, MemoryTier } from '../../memory/model.js'
import type { HistoryItem, TenantTransfer, TransferItem } from '../transfer.js'
import { inTenant, retryableOrSame } from './connection.js'
import { PostgresMemories } from './memories.js'
import { TenantScope } from './place.js'
import type { PostgresDatabase } from './postgres-store.js'

/** The tenant's tables, and those an import with --replace empties (the search documents are rebuilt from what is written). */
const dataTables = ['mk_memories', 'mk_tiers', 'mk_history', 'mk_activations', 'mk_relations', 'mk_receipts', 'mk_outcomes']
const replacedTables = [...dataTables, 'mk_receipt_salts', 'mk_documents', 'mk_index_state']

/**
 * Every query names the tenant itself as well as setting it for row-level security: an operator
 * may connect as a role RLS does not bind (a superuser), and a move must still touch one tenant only.
 */
const mine = "tenant_id = current_setting('mk.tenant', true) AND scope = $1"

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** A folder the workspace does not configure (a source of another server) is still a shared folder of its layer: rows need no directory. */
function folderFor(scope: TenantScope, key: string): MemoryFolder {
  const known = folderOfKey(scope.workspace, key)
  if (known !== undefined) return known
  const [layer = 'team'] = key.split('/')
  return { layer: layer as MemoryLayer, key, dir: '', private: false, owner: undefined }
}

/** A row the database would not take (text PostgreSQL cannot hold, such as a NUL character): the line is named, and the transaction rolls back. */
function refusedItem(error: unknown, item: TransferItem, line: number): unknown {
  const refused = retryableOrSame(error)
  if (refused instanceof MkError || !(refused instanceof Error)) return refused
  return new MkError('INVALID_INPUT', `line ${line}: PostgreSQL refused the ${item.kind} (${refused.message}); nothing was imported`, {
    details: { line, kind: item.kind, hint: 'fix or drop that line of the file, then import again' },
    cause: refused,
  })
}

/** One tenant's scope of a database in the portable form; an import is one transaction. */
export class PostgresTransfer implements TenantTransfer {
  readonly kind = 'postgres'

  constructor(private readonly scope: TenantScope) {}

  private run<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.scope.pool().then((pool) => inTenant(pool, this.scope.tenantId, work))
  }

  async read(progress: (done: number) => void): Promise<TransferItem[]> {
    const scope = [this.scope.scope]
    return this.run(async (client) => {
      const items: TransferItem[] = []
      const memories = await client.query<{ folder: string; id: string; record: MemoryRecord }>(
        `SELECT folder, id, record FROM mk_memories WHERE ${mine}`,
        scope,
      )
      for (const row of memories.rows.sort((a, b) => byKey(a.folder, b.folder) || byKey(a.id, b.id))) {
        items.push({ kind: 'memory', folder: row.folder, text: formatMemory(row.record) })
      }
      progress(items.length)
      const tiers = await client.query<{ folder: string; id: string; tier: MemoryTier }>(`SELECT folder, id, tier FROM mk_tiers WHERE ${mine}`, scope)
      for (const row of tiers.rows.sort((a, b) => byKey(a.folder, b.folder) || byKey(a.id, b.id))) items.push({ kind: 'tier', ...row })
      const history = await client.query<Omit<HistoryItem, 'kind' | 'commit' | 'at'> & { commit_id: string; at: Date }>(
        `SELECT commit_id, at, author, message, op, folder, memory_id, text FROM mk_history WHERE ${mine} ORDER BY seq`,
        scope,
      )
      for (const { commit_id: commit, at, ...row } of history.rows) items.push({ kind: 'history', commit, at: at.toISOString(), ...row })
      progress(items.length)
      const activations = await client.query<{ folder: string; entry: Record<string, unknown> }>(
        `SELECT folder, entry FROM mk_activations WHERE ${mine} ORDER BY seq`,
        scope,
      )
      for (const row of activations.rows) items.push({ kind: 'activation', ...row })
      const relations = await client.query<{ folder: string; relation: Extract<TransferItem, { kind: 'relation' }>['relation'] }>(
        `SELECT folder, relation FROM mk_relations WHERE ${mine} ORDER BY seq`,
        scope,
      )
      for (const row of relations.rows) items.push({ kind: 'relation', ...row })
      const receipts = await client.query<{ receipt: Record<string, unknown> }>(`SELECT receipt FROM mk_receipts WHERE ${mine} ORDER BY seq`, scope)
      for (const row of receipts.rows) items.push({ kind: 'receipt', receipt: row.receipt })
      const salts = await client.query<{ salt: Buffer }>(`SELECT salt FROM mk_receipt_salts WHERE ${mine}`, scope)
      for (const row of salts.rows) items.push({ kind: 'receipt_salt', salt: row.salt.toString('base64') })
      const outcomes = await client.query<{ commit_id: string; event: Extract<TransferItem, { kind: 'outcome' }>['event'] }>(
        `SELECT commit_id, event FROM mk_outcomes WHERE ${mine} ORDER BY seq`,
        scope,
      )
      for (const row of outcomes.rows) items.push({ kind: 'outcome', commit: row.commit_id, event: row.event })
      progress(items.length)
      return items
    })
  }

  async isEmpty(): Promise<boolean> {
    return this.run((client) => this.emptyIn(client))
  }

  private async emptyIn(client: PoolClient): Promise<boolean> {
    for (const table of dataTables) {
      const rows = await client.query(`SELECT 1 FROM ${table} WHERE ${mine} LIMIT 1`, [this.scope.scope])
      if ((rows.rowCount ?? 0) > 0) return false
    }
    return true
  }

  async write(items: readonly TransferItem[], options: { replace: boolean; progress: (done: number) => void }): Promise<void> {
    const { scope } = this.scope
    const memories = new PostgresMemories(this.scope)
    await this.run(async (client) => {
      // The check and the writes are one transaction: a write that lands meanwhile is seen, or the import is refused.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`mk store import/${this.scope.tenantId}/${scope}`])
      if (options.replace) {
        for (const table of replacedTables) await client.query(`DELETE FROM ${table} WHERE ${mine}`, [scope])
      } else if (!(await this.emptyIn(client))) {
        throw new MkError('CONFLICT', `tenant ${this.scope.tenantId} (scope ${scope}) already holds data in this database; nothing was imported`, {
          details: { tenant: this.scope.tenantId, scope, hint: 'import into an empty tenant, or pass --replace to drop what it holds first' },
        })
      }
      for (const [index, item] of items.entries()) {
        try {
          await this.insert(client, memories, item)
        } catch (error) {
          throw refusedItem(error, item, index + 2)
        }
        if ((index + 1) % 1000 === 0) options.progress(index + 1)
      }
      options.progress(items.length)
    })
  }

  private async insert(client: PoolClient, memories: PostgresMemories, item: TransferItem): Promise<void> {
    const { scope } = this.scope
    switch (item.kind) {
      case 'memory': {
        const folder = folderFor(this.scope, item.folder)
        await memories.insert(client, folder, parseMemory(item.text, folder.private ? 'private' : 'shared'))
        return
      }
      case 'tier':
        await client.query('INSERT INTO mk_tiers (scope, folder, id, tier) VALUES ($1, $2, $3, $4)', [scope, item.folder, item.id, item.tier])
        await client.query(`UPDATE mk_documents SET status = $3 WHERE ${mine} AND id = $2`, [scope, item.id, item.tier])
        return
      case 'history':
        await client.query(
          'INSERT INTO mk_history (scope, commit_id, at, author, message, op, folder, memory_id, text) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
          [scope, item.commit, item.at, item.author, item.message, item.op, item.folder, item.memory_id, item.text],
        )
        return
      case 'activation':
        await client.query('INSERT INTO mk_activations (scope, folder, entry) VALUES ($1, $2, $3)', [scope, item.folder, JSON.stringify(item.entry)])
        return
      case 'relation':
        await client.query('INSERT INTO mk_relations (scope, folder, relation) VALUES ($1, $2, $3)', [scope, item.folder, JSON.stringify(item.relation)])
        return
      case 'receipt':
        await client.query('INSERT INTO mk_receipts (scope, at, receipt) VALUES ($1, $2, $3)', [scope, item.receipt.at, JSON.stringify(item.receipt)])
        return
      case 'receipt_salt':
        await client.query('INSERT INTO mk_receipt_salts (scope, salt) VALUES ($1, $2) ON CONFLICT (tenant_id, scope) DO UPDATE SET salt = excluded.salt', [
          scope,
          Buffer.from(item.salt, 'base64'),
        ])
        return
      case 'outcome':
        await client.query('INSERT INTO mk_outcomes (scope, commit_id, rule_id, outcome, event) VALUES ($1, $2, $3, $4, $5)', [
          scope,
          item.commit,
          item.event.rule_id,
          item.event.outcome,
          JSON.stringify(item.event),
        ])
    }
  }
}

/** The transfer of one tenant's scope of a database, over the process's pool for it. */
export function openPostgresTransfer(database: PostgresDatabase, place: { workspace: Workspace; tenantId: string; scope: string }): PostgresTransfer {
  return new PostgresTransfer(new TenantScope(database.pool, place.tenantId, place.scope, place.workspace))
}
