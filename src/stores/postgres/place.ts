import type { Pool, PoolClient, QueryResultRow } from 'pg'
import type { Workspace } from '../../config/workspace.js'
import { sha256Hex } from '../../hash.js'
import { inTenant, readInTenant, type PreparedRead } from './connection.js'

/** The read statements made so far, by text: a search's text is the same for every search with the same shape of filters. */
const readsByText = new Map<string, PreparedRead>()

/** A read statement named by its text: prepared once per connection, then executed by name (readInTenant). */
export function preparedRead(text: string): PreparedRead {
  let statement = readsByText.get(text)
  if (statement === undefined) {
    statement = { name: `mk_read_${sha256Hex(text).slice(0, 24)}`, text }
    readsByText.set(text, statement)
  }
  return statement
}

/** One tenant's scope in the database: every row the store reads or writes is keyed by both. */
export class TenantScope {
  constructor(
    /** The process's pool for the database, opened (and the schema migrated) on first use. */
    readonly pool: () => Promise<Pool>,
    readonly tenantId: string,
    readonly scope: string,
    /** The tenant's workspace: its configuration says which memory folders and knowledge sources exist. */
    readonly workspace: Workspace,
    /** Told after a transaction that changed the scope's documents commits (the replica drops what it holds of them). */
    private readonly documentsChanged?: (place: TenantScope) => void,
  ) {}

  /** Work in one transaction as this tenant (row-level security admits its rows only). */
  async run<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTenant(await this.pool(), this.tenantId, work, () => this.documentsChanged?.(this))
  }

  /** One read statement as this tenant, in one transaction and one round trip (with the transaction's `settings`). */
  async read<R extends QueryResultRow>(statement: PreparedRead, values: readonly unknown[], settings?: Readonly<Record<string, string>>): Promise<R[]> {
    return readInTenant<R>(await this.pool(), this.tenantId, statement, values, settings)
  }

  /** Hold one folder's lock until the transaction ends: the writes of a folder (a dedup check and its insert) go one at a time, on every replica. */
  async lockFolder(client: PoolClient, folder: string): Promise<void> {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended(current_setting('mk.tenant', true) || '/' || $1 || '/' || $2, 0))", [this.scope, folder])
  }
}

/** The vectors a replica holds in memory, as a scope sees them: dropped for a scope whose documents changed. */
interface HeldVectors {
  forget(place: TenantScope): void
}

/** A tenant's scope on this replica: a transaction that changes its documents makes the replica drop the vectors it held of them. */
export function replicaScope(
  database: { pool: () => Promise<Pool>; vectors: HeldVectors },
  tenantId: string,
  scope: string,
  workspace: Workspace,
): TenantScope {
  return new TenantScope(database.pool, tenantId, scope, workspace, (changed) => database.vectors.forget(changed))
}
