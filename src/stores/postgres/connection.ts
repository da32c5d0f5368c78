import type { Client, Pool, PoolClient, QueryResult, QueryResultRow } from 'pg'
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

/**
 * A connection of its own, outside the pool, to the pool's database: the replica's LISTEN holds one
 * for as long as it runs, and as one of the pool's it left a pool of one connection none to read with.
 */
export async function openListener(pool: Pool): Promise<Client> {
  const { default: pg } = await importPackage<{ default: typeof import('pg') }>('pg')
  const client = new pg.Client({ ...pool.options, connectionTimeoutMillis: 5_000 })
  await client.connect()
  return client
}

/** SQLSTATE classes that mean the database cannot be reached or is going away: 08 connection, 57P admin shutdown, 53 resources. */
const unavailableStates = /^(08|57P|53)/
const unavailableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'])

/** SQLSTATEs of a transaction the database gave up because another ran at the same time: serialization failure, deadlock, lock not available. */
const contendedStates = new Set(['40001', '40P01', '55P03'])

/**
 * A database that went away becomes a retryable UNAVAILABLE (503), and a transaction it gave up
 * for a concurrent one a retryable CONFLICT (409): never an internal error.
 */
export function retryableOrSame(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && contendedStates.has(code))
    return new MkError('CONFLICT', `the PostgreSQL store gave this call up for another that ran at the same time (${error.message}); retry it`, {
      details: { store: 'postgres', sqlstate: code, hint: 'nothing was written: the same call again will go through' },
      retryable: true,
      cause: error,
    })
  const unreachable =
    (typeof code === 'string' && (unavailableStates.test(code) || unavailableSocketCodes.has(code))) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(error.message)
  if (!unreachable) return error
  return new MkError('UNAVAILABLE', `the PostgreSQL store cannot be reached (${error.message}); retry shortly`, {
    details: { store: 'postgres', hint: 'the database is down or restarting: the server answers again once it is back' },
    cause: error,
  })
}

/** Connections whose open transaction announced a change of documents (announceChange): the replica drops what it holds once it commits. */
const announcing = new WeakSet<PoolClient>()

export function markAnnounced(client: PoolClient): void {
  announcing.add(client)
}

/**
 * Runs work in one transaction as one tenant: `mk.tenant` is set for the transaction only
 * (SET LOCAL), and every table's row-level security admits only that tenant's rows. When the
 * work announced a change of documents, `changed` runs after the commit: this replica's own
 * write is seen by its next search without waiting for the notification.
 */
export async function inTenant<T>(pool: Pool, tenantId: string, work: (client: PoolClient) => Promise<T>, changed?: () => void): Promise<T> {
  const client = await connect(pool)
  let broken = false
  try {
    // One round trip: the simple protocol takes both statements at once (the tenant escaped as a literal).
    await client.query(`BEGIN; SELECT set_config('mk.tenant', ${client.escapeLiteral(tenantId)}, true)`)
    const result = await work(client)
    await client.query('COMMIT')
    if (announcing.has(client)) changed?.()
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true
    })
    throw retryableOrSame(error)
  } finally {
    announcing.delete(client)
    client.release(broken)
  }
}

async function connect(pool: Pool): Promise<PoolClient> {
  try {
    return await pool.connect()
  } catch (error) {
    throw retryableOrSame(error)
  }
}

/** A statement a read sends by name: prepared (SQL PREPARE) once per connection, then only executed. */
export interface PreparedRead {
  name: string
  text: string
}

/** The statements each connection has prepared, by name. */
const preparedOn = new WeakMap<PoolClient, Set<string>>()

/** A value as a SQL literal: text and numbers quoted, arrays as array literals (their elements quoted), null as NULL. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (Array.isArray(value)) return escapeLiteral(`{${value.map((item) => (item === null ? 'NULL' : `"${String(item).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`)
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return escapeLiteral(String(value))
  throw new Error(`no SQL literal for a ${typeof value}`)
}

/**
 * PostgreSQL's own quoting of a string literal (node-postgres's escapeLiteral): quotes doubled,
 * backslashes doubled under E''. PostgreSQL text cannot hold a NUL character, and the simple
 * protocol would end the message at it: such a value is refused as bad input.
 */
function escapeLiteral(text: string): string {
  if (text.includes('\0'))
    throw new MkError('INVALID_INPUT', 'a value holds a NUL character (\\u0000), which PostgreSQL text cannot hold', {
      details: { hint: 'remove the NUL character from the query, tag or filter' },
    })
  const quoted = `'${text.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`
  return text.includes('\\') ? ` E${quoted}` : quoted
}

/**
 * One read as one tenant in ONE round trip: the simple protocol carries the transaction, the
 * tenant (SET LOCAL, for row-level security), the statement's first PREPARE on this connection
 * and its EXECUTE with the values as literals, and the commit, in one message, with any other
 * `settings` for the transaction only (pgvector's). Returns the rows.
 * node-postgres sends a statement with parameters, and each of BEGIN and COMMIT, as a round trip
 * of its own: a read in a transaction was three, a search of several reads thirteen.
 */
export async function readInTenant<R extends QueryResultRow>(
  pool: Pool,
  tenantId: string,
  statement: PreparedRead,
  values: readonly unknown[],
  settings: Readonly<Record<string, string>> = {},
): Promise<R[]> {
  // The literals first: a value refused as bad input holds no connection. Settings are the transaction's, as the tenant is.
  const tenant = `SELECT ${[['mk.tenant', tenantId], ...Object.entries(settings)].map(([name, value]) => `set_config(${sqlLiteral(name)}, ${sqlLiteral(value)}, true)`).join(', ')}`
  const execute = values.length === 0 ? `EXECUTE ${statement.name}` : `EXECUTE ${statement.name}(${values.map(sqlLiteral).join(', ')})`
  const client = await connect(pool)
  const prepared = preparedOn.get(client) ?? new Set<string>()
  preparedOn.set(client, prepared)
  const prepare = prepared.has(statement.name) ? '' : `PREPARE ${statement.name} AS ${statement.text};\n`
  try {
    const results = (await client.query(`BEGIN READ ONLY; ${tenant};\n${prepare}${execute};\nCOMMIT`)) as unknown as QueryResult<R>[]
    prepared.add(statement.name)
    client.release()
    return results[prepare === '' ? 2 : 3]?.rows ?? []
  } catch (error) {
    // The failed message left its transaction open and this connection's prepared statements unknown: it is closed, not reused.
    client.release(true)
    throw retryableOrSame(error)
  }
}
