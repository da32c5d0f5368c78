import type { Pool } from 'pg'
import { openPool, retryableOrSame } from './connection.js'
import { migrate, schemaVersion } from './migrations.js'
import { indexedDimensions, vectorPath } from './pgvector.js'
import { bypassWarning, connectionRole, notOwnedOrSame, type ConnectionRole } from './role.js'
import { describeDatabase } from './search-index.js'
import type { PostgresDatabase } from './postgres-store.js'
import { ReplicaVectors } from './vectors.js'

/** The databases this process (or tool thread) has opened, by URL: one pool and one set of held vectors each, for every tenant. */
const databases = new Map<string, PostgresDatabase>()

/**
 * The process's handle on a database: the pool is opened, and the schema brought to the newest
 * version (under the migration lock), on first use; a failure is forgotten so the next call tries again.
 */
export function postgresDatabase(url: string, poolSize: number): PostgresDatabase {
  const known = databases.get(url)
  if (known !== undefined) return known
  let opening: Promise<Pool> | undefined
  const pool = (): Promise<Pool> => {
    opening ??= (async () => {
      const opened = await openPool({ url, poolSize })
      try {
        await migrate(opened)
        return opened
      } catch (error) {
        await opened.end().catch(() => undefined)
        throw notOwnedOrSame(error)
      }
    })()
    const current = opening
    current.catch(() => {
      if (opening === current) opening = undefined
    })
    return current
  }
  const database = { url, pool, vectors: new ReplicaVectors(pool, url) }
  databases.set(url, database)
  return database
}

/** Close every database this process opened (the server stops). */
export async function closeDatabases(): Promise<void> {
  const open = [...databases.values()]
  databases.clear()
  for (const database of open) {
    await database.vectors.close()
    await (await database.pool().catch(() => undefined))?.end()
  }
}

/** What health says of a database store: where it is, its schema, and how vectors are searched. */
export type DatabaseStatus = {
  kind: 'postgres'
  database: string
  schema: number
  /**
   * `pgvector`: the database finds the nearest vectors (HNSW) for tenants whose model has
   * `pgvector.dimensions` (the bundled model's); without the extension, or for other models,
   * vectors are kept in the database and searched in each replica's memory.
   */
  vectors: 'pgvector' | 'replica-memory'
  pgvector?: { version: string; dimensions: number; iterativeScan: boolean }
  /** The role the server connects as; `bypassed`: row-level security does not bind it (a superuser or BYPASSRLS), and `warning` says how to fix it. */
  role: string
  rls: 'enforced' | 'bypassed'
  warning?: string
}

/** Opens the database if need be (migrating it), asks it one question, and says what it is; UNAVAILABLE when it cannot be reached. */
export async function databaseStatus(url: string, poolSize: number): Promise<DatabaseStatus> {
  const pool = await postgresDatabase(url, poolSize).pool()
  try {
    await pool.query('SELECT 1')
  } catch (error) {
    throw retryableOrSame(error)
  }
  const { role, rls } = await connectionRole(pool)
  const path = await vectorPath(pool)
  return {
    kind: 'postgres',
    database: describeDatabase(url),
    schema: await schemaVersion(pool),
    vectors: path.kind,
    ...(path.kind === 'pgvector' ? { pgvector: { version: path.version, dimensions: indexedDimensions, iterativeScan: path.iterativeScan } } : {}),
    role,
    rls,
    ...(rls === 'bypassed' ? { warning: bypassWarning(role) } : {}),
  }
}

/**
 * The role a URL connects as, asked on a connection of its own before anything is migrated: a
 * server refused for its role has not made the tables (which that role would then own).
 */
export async function databaseRole(url: string): Promise<ConnectionRole & { warning?: string }> {
  const pool = await openPool({ url, poolSize: 1 })
  try {
    const { role, rls } = await connectionRole(pool)
    return { role, rls, ...(rls === 'bypassed' ? { warning: bypassWarning(role) } : {}) }
  } finally {
    await pool.end()
  }
}
