import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MkError } from '../../../../src/errors.js'
import { inTenant, openPool } from '../../../../src/stores/postgres/connection.js'
import { noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()

// Issue 31: a write either succeeds or answers a retryable error with a code, never 500 INTERNAL_ERROR.
describe.skipIf(noPostgres !== undefined)('a transaction PostgreSQL gives up for another one', () => {
  let pool: Pool

  beforeAll(async () => {
    pool = await openPool({ url: postgres.cluster().createDatabase(), poolSize: 4 })
  })
  afterAll(() => pool.end())

  it('is a retryable CONFLICT (409) with its SQLSTATE, not an internal error', async () => {
    // Two transactions take two locks in opposite orders: the database breaks the deadlock by failing one (40P01).
    let bothHoldOne: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      let count = 0
      bothHoldOne = () => {
        count += 1
        if (count === 2) resolve()
      }
    })
    const crossing = (first: number, second: number) =>
      inTenant(pool, 'acme', async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [first])
        bothHoldOne()
        await held
        await client.query('SELECT pg_advisory_xact_lock($1)', [second])
      })
    const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)])
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []))
    expect(failures).toHaveLength(1)
    const [failure] = failures
    expect(failure).toBeInstanceOf(MkError)
    expect(failure).toMatchObject({ code: 'CONFLICT', retryable: true, details: { sqlstate: '40P01' } })
  }, 30_000)
})
