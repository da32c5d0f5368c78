import type { Pool, PoolClient } from 'pg'
import { MkError } from '../../errors.js'
import { importPackage } from '../../import-package.js'

/** How a PostgreSQL store is reached: the URL (`postgres://…`) and the most connections one process opens. */
export interface PostgresSettings {
  url: string
  poolSize: number
}

export const defaultPoolSize = 10

/** A pool of connections to the database; `pg` is loaded only by a process that uses PostgreSQL. */
export async function openPool(settings: PostgresSettings): Promise<Pool> {
  const { default: pg } = await importPackage<{ default: typeof import('pg') }>('pg')
  const pool = new pg.Pool({ connectionString: settings.url, max: settings.poolSize, connectionTimeoutMillis: 5_000 })
  // An idle connection the server closed (a restart) is dropped from the pool, never thrown at the process.
  pool.on('error', () => undefined)
  return pool
}

/** SQLSTATE classes that mean the database cannot be reached or is going away: 08 connection, 57P admin shutdown, 53 resources. */
const unavailableStates = /^(08|57P|53)/
const unavailableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'])

/** A database that went away becomes a retryable UNAVAILABLE (503), never an internal error. */
export function unavailableOrSame(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  const code = (error as { code?: unknown }).code
  const unreachable =
    (typeof code === 'string' && (unavailableStates.test(code) || unavailableSocketCodes.has(code))) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(error.message)
  if (!unreachable) return error
  return new MkError('UNAVAILABLE', `the PostgreSQL store cannot be reached (${error.message}); retry shortly`, {
    details: { store: 'postgres', hint: 'the database is down or restarting: the server answers again once it is back' },
    cause: error,
  })
}

/**
 * Runs work in one transaction as one tenant: `mk.tenant` is set for the transaction only
 * (SET LOCAL), and every table's row-level security admits only that tenant's rows.
 */
export async function inTenant<T>(pool: Pool, tenantId: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  let client: PoolClient
  try {
    client = await pool.connect()
  } catch (error) {
    throw unavailableOrSame(error)
  }
  let broken = false
  try {
    // One round trip: the simple protocol takes both statements at once (the tenant escaped as a literal).
    await client.query(`BEGIN; SELECT set_config('mk.tenant', ${client.escapeLiteral(tenantId)}, true)`)
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true
    })
    throw unavailableOrSame(error)
  } finally {
    client.release(broken)
  }
}
