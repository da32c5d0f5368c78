import { openFilesStore } from '../stores/files/files-store.js'
import { closeDatabases, databaseStatus, postgresDatabase, type DatabaseStatus } from '../stores/postgres/databases.js'
import { openPostgresStore } from '../stores/postgres/postgres-store.js'
import type { Store, StorePlace } from '../stores/store.js'

/**
 * The one place that picks a tenant's store; every host reaches it through the dispatcher:
 * PostgreSQL when the host names a database (`mk serve --store postgres://…`, MK_STORE), else
 * files + SQLite.
 */
export function openStore(place: StorePlace): Store {
  const { database } = place
  if (database === undefined) return openFilesStore(place)
  return openPostgresStore(postgresDatabase(database.url, database.poolSize), { ...place, tenantId: database.tenantId, scope: database.scope })
}

/** What a host's health says of its store: files, or the database with its schema and vector path (which also proves it answers). */
export function storeStatus(database: { url: string; poolSize: number } | undefined): Promise<DatabaseStatus | { kind: 'files' }> {
  return database === undefined ? Promise.resolve({ kind: 'files' }) : databaseStatus(database.url, database.poolSize)
}

/** Release the connections of every database store this process opened. */
export function closeStores(): Promise<void> {
  return closeDatabases()
}
