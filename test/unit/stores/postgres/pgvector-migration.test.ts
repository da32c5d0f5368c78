import { describe, expect, it } from 'vitest'
import { openPool } from '../../../../src/stores/postgres/connection.js'
import { migrate, newestSchema } from '../../../../src/stores/postgres/migrations.js'
import { vectorPath } from '../../../../src/stores/postgres/pgvector.js'
import { throwawayVectorDatabase } from '../../../helpers/pglite.js'

// A database where the application's plain role may not create pgvector, and no admin did (yet).
const database = throwawayVectorDatabase({ extension: false })

describe('migration 5: pgvector when the extension can be created', () => {
  it('without the extension: migrates to the newest schema with no error, and vectors stay in replica memory', async () => {
    const pool = await openPool({ url: database.database().url, poolSize: 1 })
    try {
      expect(await migrate(pool)).toEqual({ applied: [1, 2, 3, 4, 5], current: newestSchema })
      expect(await vectorPath(pool)).toEqual({ kind: 'replica-memory' })
      const columns = await pool.query("SELECT attname FROM pg_attribute WHERE attrelid = 'mk_documents'::regclass AND attname = 'vec'")
      expect(columns.rows).toEqual([])
    } finally {
      await pool.end()
    }
  })

  it('an admin installs the extension later: the next start adds the vector column, filled from the stored vectors, and takes pgvector', async () => {
    const before = await openPool({ url: database.database().url, poolSize: 1 })
    const vector = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i) / 16)
    try {
      await before.query(
        `BEGIN; SELECT set_config('mk.tenant', 'acme', true);
         INSERT INTO mk_documents (scope, id, kind, layer, content, tags, updated_at, dedup_key, text_hash, tsv, length, embedding)
         VALUES ('default', 'm1', 'memory', 'project', 'x', '{}', 1, 'x', 'h', to_tsvector('x'), 1, '\\x${Buffer.from(vector.buffer).toString('hex')}');
         COMMIT`,
      )
    } finally {
      await before.end()
    }
    await database.database().asAdmin('CREATE EXTENSION vector')
    const pool = await openPool({ url: database.database().url, poolSize: 1 })
    try {
      expect(await migrate(pool)).toEqual({ applied: [], current: newestSchema })
      expect(await vectorPath(pool)).toMatchObject({ kind: 'pgvector', iterativeScan: true })
      const client = await pool.connect()
      try {
        await client.query("BEGIN; SELECT set_config('mk.tenant', 'acme', true)")
        const row = await client.query<{ vec: string }>("SELECT vec::text AS vec FROM mk_documents WHERE id = 'm1'")
        // The stored float32 bytes, decoded exactly.
        expect(Float32Array.from(JSON.parse(row.rows[0]?.vec ?? '[]') as number[])).toEqual(vector)
        await client.query('COMMIT')
      } finally {
        client.release()
      }
    } finally {
      await pool.end()
    }
  })
})
