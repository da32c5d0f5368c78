import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inTenant, openPool } from '../../../../src/stores/postgres/connection.js'
import { migrate, migrations, newestSchema, schemaVersion } from '../../../../src/stores/postgres/migrations.js'
import { noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()

describe.skipIf(noPostgres !== undefined)('the PostgreSQL schema', () => {
  let url: string
  let pools: Pool[] = []
  const pool = async (poolSize = 4): Promise<Pool> => {
    const opened = await openPool({ url, poolSize })
    pools.push(opened)
    return opened
  }
  beforeAll(() => {
    url = postgres.cluster().createDatabase()
  })
  afterAll(async () => {
    await Promise.all(pools.map((opened) => opened.end()))
    pools = []
  })

  it('migrates once when two replicas start together, and records the version', async () => {
    const [first, second] = await Promise.all([pool(), pool()])
    if (first === undefined || second === undefined) throw new Error('no pools')
    expect(await schemaVersion(first)).toBe(0)
    const reports = await Promise.all([migrate(first), migrate(second)])
    expect(reports.map((report) => report.applied).flat()).toEqual([...Array(newestSchema).keys()].map((n) => n + 1))
    expect(reports.map((report) => report.current)).toEqual([newestSchema, newestSchema])
    expect(await schemaVersion(first)).toBe(newestSchema)
    expect((await migrate(first)).applied).toEqual([])
  })

  it('reads again, as FTS5 does, the text of documents written before migration 3', async () => {
    const database = await openPool({ url: postgres.cluster().createDatabase(), poolSize: 2 })
    pools.push(database)
    await database.query('CREATE TABLE mk_schema_versions (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    for (const migration of migrations.filter((step) => step.version <= 2)) {
      await database.query(migration.sql)
      await database.query('INSERT INTO mk_schema_versions (version, name) VALUES ($1, $2)', [migration.version, migration.name])
    }
    await inTenant(database, 'acme', (client) =>
      client.query(
        `INSERT INTO mk_documents (scope, id, kind, layer, content, tags, updated_at, dedup_key, text_hash, tsv, length)
         VALUES ('default', 'm1', 'memory', 'project', 'Deploy only after the on-call review', '{}', 0, 'k', 'h', to_tsvector('english', 'Deploy only after the on-call review'), 5)`,
      ),
    )
    expect((await migrate(database)).applied).toEqual(migrations.filter((step) => step.version > 2).map((step) => step.version))
    const row = await inTenant(database, 'acme', (client) =>
      client.query<{ tsv: string; length: number }>("SELECT tsv::text, length FROM mk_documents WHERE id = 'm1'"),
    )
    // Stop words kept, "on-call" read as two words, as FTS5 reads them: seven words.
    expect(row.rows[0]?.tsv).toContain("'after'")
    expect(row.rows[0]?.tsv).not.toContain("'on-cal")
    expect(row.rows[0]?.length).toBe(7)
  })

  it("never shows one tenant's rows to another, whatever the query asks", async () => {
    const opened = await pool()
    await migrate(opened)
    const row = (tenant: string) =>
      inTenant(opened, tenant, (client) =>
        client.query("INSERT INTO mk_activations (tenant_id, scope, folder, entry) VALUES ($1, 'default', 'user', '{}'::jsonb)", [tenant]),
      )
    await row('acme')
    await row('globex')
    // The query names no tenant at all: row-level security alone keeps the other's rows out.
    const seenBy = (tenant: string) =>
      inTenant(opened, tenant, async (client) => (await client.query<{ tenant_id: string }>('SELECT tenant_id FROM mk_activations')).rows)
    expect(await seenBy('acme')).toEqual([{ tenant_id: 'acme' }])
    expect(await seenBy('globex')).toEqual([{ tenant_id: 'globex' }])
    // Asking for the other tenant by name finds nothing either, and writing as it is refused.
    const across = await inTenant(opened, 'acme', async (client) => (await client.query("SELECT * FROM mk_activations WHERE tenant_id = 'globex'")).rowCount)
    expect(across).toBe(0)
    await expect(
      inTenant(opened, 'acme', (client) =>
        client.query("INSERT INTO mk_activations (tenant_id, scope, folder, entry) VALUES ('globex', 'default', 'user', '{}'::jsonb)"),
      ),
    ).rejects.toThrow(/row-level security/)
    // Outside a tenant's transaction no row is visible at all.
    expect((await opened.query('SELECT * FROM mk_activations')).rowCount).toBe(0)
  })

  it('answers a database that cannot be reached as UNAVAILABLE, retryable', async () => {
    const unreachable = await openPool({ url: 'postgres://nobody@127.0.0.1:1/none', poolSize: 1 })
    pools.push(unreachable)
    await expect(inTenant(unreachable, 'acme', (client) => client.query('SELECT 1'))).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true })
    await expect(migrate(unreachable)).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })
})
