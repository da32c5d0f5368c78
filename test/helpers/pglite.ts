import type { Pool } from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { startVectorDatabase, type VectorDatabase } from '../../scripts/pglite-server.js'
import { openPool } from '../../src/stores/postgres/connection.js'
import { migrate } from '../../src/stores/postgres/migrations.js'

export { startVectorDatabase, type VectorDatabase }

/** One PGlite database for the test file that calls this (at its top level), started before its first test and stopped after its last. */
export function throwawayVectorDatabase(options: { extension: boolean }): { database(): VectorDatabase } {
  let running: VectorDatabase | undefined
  beforeAll(async () => {
    running = await startVectorDatabase(options)
  }, 120_000)
  afterAll(() => running?.stop())
  return {
    database() {
      if (running === undefined) throw new Error('the PGlite database is not running')
      return running
    },
  }
}

/**
 * The store's own pool (openPool), migrated, as PGlite allows it: one connection that reads and
 * writes (the replica listens on a connection of its own, outside the pool), never closed when idle. A read prepares its
 * statement once per connection; a new connection in the same session would prepare it again
 * and be refused ("already exists").
 */
export async function vectorPool(url: string): Promise<Pool> {
  const pool = await openPool({ url, poolSize: 1 })
  pool.options.idleTimeoutMillis = 0
  await migrate(pool)
  return pool
}
