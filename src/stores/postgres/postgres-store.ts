import type { Pool } from 'pg'
import type { Store, StorePlace } from '../store.js'
import { PostgresActivations, PostgresGraph, PostgresOutcomes, PostgresReceipts, PostgresTiers } from './ledgers.js'
import { PostgresMemories } from './memories.js'
import { replicaScope } from './place.js'
import { bypassWarning, connectionRole } from './role.js'
import { PostgresIndex } from './search-index.js'
import type { ReplicaVectors } from './vectors.js'

/** One database as a process holds it: its pool, and the vectors this replica keeps in memory. */
export interface PostgresDatabase {
  url: string
  /** Opened, and the schema migrated, on first use. */
  pool: () => Promise<Pool>
  vectors: ReplicaVectors
}

/**
 * The team server's store on PostgreSQL: one tenant's scope of a database shared by every replica.
 * Memories, history, ledgers and the search documents are rows keyed by (tenant_id, scope) under
 * row-level security; the tenant's workspace still supplies configuration and knowledge files.
 */
export function openPostgresStore(database: PostgresDatabase, place: StorePlace & { tenantId: string; scope: string }): Store {
  const scope = replicaScope(database, place.tenantId, place.scope, place.workspace)
  const memories = new PostgresMemories(scope)
  return {
    kind: 'postgres',
    memories,
    index: new PostgresIndex(scope, database.vectors, place.resources, database.url),
    activations: new PostgresActivations(scope),
    tiers: new PostgresTiers(scope),
    receipts: new PostgresReceipts(scope),
    outcomes: new PostgresOutcomes(scope),
    graph: new PostgresGraph(scope, memories),
    async problems() {
      const { role, rls } = await connectionRole(await database.pool())
      return rls === 'bypassed' ? [bypassWarning(role)] : []
    },
  }
}
