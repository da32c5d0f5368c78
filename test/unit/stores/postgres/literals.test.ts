import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPool, sqlLiteral } from '../../../../src/stores/postgres/connection.js'
import { noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()

/** Values a caller controls (tags, queries) reach a read as literals: each one must come back as itself. */
const hostile = ["it's", 'back\\slash', 'a "quoted" word', '{x,y}', 'NULL', '', ' spaced ', "'); DROP TABLE mk_documents; --", 'naïve 東京 ✓', '\\"', "E'\\\\'"]

describe.skipIf(noPostgres !== undefined)('SQL literals of the one-message reads', () => {
  let pool: Pool

  beforeAll(async () => {
    pool = await openPool({ url: postgres.cluster().createDatabase(), poolSize: 1 })
  })
  afterAll(() => pool.end())

  it('reads back every text and every array of texts as it was given', async () => {
    for (const value of hostile) {
      const row = (await pool.query<{ text: string; list: string[] }>(`SELECT ${sqlLiteral(value)}::text AS text, ${sqlLiteral([value, 'b'])}::text[] AS list`))
        .rows[0]
      expect(row, value).toEqual({ text: value, list: [value, 'b'] })
    }
    const numbers = (await pool.query<{ ints: number[]; count: string }>(`SELECT ${sqlLiteral([1, 2, 3])}::int[] AS ints, ${sqlLiteral(42)}::bigint AS count`))
      .rows[0]
    expect(numbers).toEqual({ ints: [1, 2, 3], count: '42' })
    expect(() => sqlLiteral('before\u0000after')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(() => sqlLiteral(['tag\u0000'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect((await pool.query<{ nothing: null }>(`SELECT ${sqlLiteral(null)}::text AS nothing`)).rows[0]).toEqual({ nothing: null })
  })
})
