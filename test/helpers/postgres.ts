import type { Pool } from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { postgresMissing, startCluster, type Cluster } from '../../scripts/postgres-cluster.js'

/** Why the PostgreSQL tests of this file do not run here (printed once), or undefined when they do. */
export const noPostgres: string | undefined = postgresMissing()
if (noPostgres !== undefined) console.warn(`PostgreSQL tests skipped: ${noPostgres}`)

/**
 * One throwaway cluster for the test file that calls this (at its top level): started before its
 * first test, stopped after its last. `cluster()` is the running cluster.
 */
export function throwawayCluster(): { cluster(): Cluster } {
  let running: Cluster | undefined
  beforeAll(async () => {
    if (noPostgres !== undefined) return
    const started = await startCluster()
    if ('skipped' in started) throw new Error(`PostgreSQL is installed but its cluster did not start: ${started.skipped}`)
    running = started
  }, 120_000)
  afterAll(() => running?.stop())
  return {
    cluster() {
      if (running === undefined) throw new Error('the PostgreSQL cluster is not running')
      return running
    },
  }
}

/** Every query the pool's clients send from now on (each one a round trip to the database), until stop(). */
export function countQueries(pool: Pool): { sent: string[]; stop(): void } {
  const sent: string[] = []
  const counted = new WeakSet<object>()
  const count = (client: { query: (...args: never[]) => unknown }): void => {
    if (counted.has(client)) return
    counted.add(client)
    const query = client.query.bind(client)
    client.query = ((...args: never[]) => {
      const [config] = args as unknown[]
      sent.push(typeof config === 'string' ? config : String((config as { text?: string }).text))
      return query(...args)
    }) as typeof client.query
  }
  pool.on('acquire', count)
  return { sent, stop: () => pool.removeListener('acquire', count) }
}
