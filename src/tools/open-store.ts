import { openFilesStore } from '../stores/files/files-store.js'
import type { DatabaseStatus } from '../stores/postgres/databases.js'
import type { Store, StorePlace } from '../stores/store.js'
import type { TenantTransfer } from '../stores/transfer.js'

type PostgresModules = {
  databases: typeof import('../stores/postgres/databases.js')
  store: typeof import('../stores/postgres/postgres-store.js')
}

// Loaded only by a host that names a database: every command on files (the agent hooks above all) never pays for it.
let postgres: Promise<PostgresModules> | undefined
const postgresModules = (): Promise<PostgresModules> =>
  (postgres ??= Promise.all([import('../stores/postgres/databases.js'), import('../stores/postgres/postgres-store.js')]).then(([databases, store]) => ({
    databases,
    store,
  })))

/**
 * The one place that picks a tenant's store; every host reaches it through the dispatcher:
 * PostgreSQL when the host names a database (`mk serve --store postgres://…`, MK_STORE), else
 * files + SQLite.
 */
export async function openStore(place: StorePlace): Promise<Store> {
  const { database } = place
  if (database === undefined) return openFilesStore(place)
  const { databases, store } = await postgresModules()
  return store.openPostgresStore(databases.postgresDatabase(database.url, database.poolSize), { ...place, tenantId: database.tenantId, scope: database.scope })
}

/** One tenant's data in the portable form (mk store export / import): in the database when `database` names one, else the workspace's files. */
export async function openTransfer(place: Pick<StorePlace, 'workspace' | 'database'>): Promise<TenantTransfer> {
  const { database } = place
  if (database === undefined) return new (await import('../stores/files/transfer.js')).FilesTransfer(place.workspace)
  const [{ databases }, { openPostgresTransfer }] = await Promise.all([postgresModules(), import('../stores/postgres/transfer.js')])
  return openPostgresTransfer(databases.postgresDatabase(database.url, database.poolSize), { ...place, tenantId: database.tenantId, scope: database.scope })
}

/** What a host's health says of its store: files, or the database with its schema and vector path (which also proves it answers). */
export async function storeStatus(database: { url: string; poolSize: number } | undefined): Promise<DatabaseStatus | { kind: 'files' }> {
  if (database === undefined) return { kind: 'files' }
  const { databases } = await postgresModules()
  return databases.databaseStatus(database.url, database.poolSize)
}

/** Whom a database store connects as, and whether row-level security binds that role (asked before the schema is touched). */
export async function storeRole(database: { url: string }): Promise<{ role: string; rls: 'enforced' | 'bypassed'; warning?: string }> {
  const { databases } = await postgresModules()
  return databases.databaseRole(database.url)
}

/** Release the connections of every database store this process opened. */
export async function closeStores(): Promise<void> {
  if (postgres === undefined) return
  const { databases } = await postgres
  await databases.closeDatabases()
}
