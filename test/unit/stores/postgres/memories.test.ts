import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../../src/config/load.js'
import type { Workspace } from '../../../../src/config/workspace.js'
import { folderForLayer } from '../../../../src/memory/locations.js'
import { inTenant, openPool } from '../../../../src/stores/postgres/connection.js'
import { PostgresActivations } from '../../../../src/stores/postgres/ledgers.js'
import { PostgresMemories } from '../../../../src/stores/postgres/memories.js'
import { migrate } from '../../../../src/stores/postgres/migrations.js'
import { TenantScope } from '../../../../src/stores/postgres/place.js'
import { memoryRecord, nobody, write } from '../../../contract/store/stores.js'
import { countQueries, noPostgres, throwawayCluster } from '../../../helpers/postgres.js'

const postgres = throwawayCluster()

describe.skipIf(noPostgres !== undefined)('memories in PostgreSQL', () => {
  let base: string
  let workspace: Workspace
  let pools: Pool[]
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'mk-pg-memories-'))
    await mkdir(join(base, 'ws'))
    await writeFile(join(base, 'ws', '.mkrc'), '')
    workspace = await loadWorkspace({ cwd: join(base, 'ws'), env: { MK_HOME: join(base, 'home') } })
    const url = postgres.cluster().createDatabase()
    // Two pools stand for two replicas: each its own connections to the one database.
    pools = [await openPool({ url, poolSize: 4 }), await openPool({ url, poolSize: 4 })]
    await migrate(pools[0] as Pool)
  })
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()))
    await rm(base, { recursive: true, force: true })
  })

  const memoriesOn = (pool: Pool, tenant: string) => new PostgresMemories(new TenantScope(async () => pool, tenant, 'default', workspace))

  it('keeps one memory when replicas add the same content at once', async () => {
    const replicas = pools.map((pool) => memoriesOn(pool, 'acme'))
    const folder = folderForLayer(workspace, nobody, 'project')
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        (replicas[n % 2] as PostgresMemories).add(folder, memoryRecord(folder, 'The on-call rota is in PagerDuty'), { ...write, identity: nobody }),
      ),
    )
    expect(outcomes.filter((outcome) => !outcome.deduplicated)).toHaveLength(1)
    const kept = outcomes.find((outcome) => !outcome.deduplicated)
    const id = kept !== undefined && !kept.deduplicated ? kept.stored.record.id : ''
    expect(outcomes.filter((outcome) => outcome.deduplicated).map((outcome) => (outcome.deduplicated ? outcome.id : ''))).toEqual(Array(7).fill(id))
    expect(await (replicas[1] as PostgresMemories).ids(folder)).toEqual([id])
  })

  it("keeps tenants apart: one tenant's memories and ledgers are not another's", async () => {
    const folder = folderForLayer(workspace, nobody, 'project')
    const acme = memoriesOn(pools[0] as Pool, 'acme-2')
    const globex = memoriesOn(pools[1] as Pool, 'globex-2')
    const added = await acme.add(folder, memoryRecord(folder, 'Acme deploys on Fridays'), { ...write, identity: nobody })
    if (added.deduplicated) throw new Error('expected a new memory')
    expect(await globex.ids(folder)).toEqual([])
    await expect(globex.find(nobody, added.stored.record.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // The same content in another tenant is a memory of its own, not a duplicate.
    expect((await globex.add(folder, memoryRecord(folder, 'Acme deploys on Fridays'), { ...write, identity: nobody })).deduplicated).toBe(false)
    const place = new TenantScope(async () => pools[0] as Pool, 'globex-2', 'default', workspace)
    await new PostgresActivations(new TenantScope(async () => pools[0] as Pool, 'acme-2', 'default', workspace)).append(folder, [
      { id: added.stored.record.id, at: '2026-11-01T00:00:00.000Z', event: 'activate', outcome: 'positive' },
    ])
    expect((await new PostgresActivations(place).counters(folder)).size).toBe(0)
  })

  it('keeps every write in the append-only history under the commit id it returned', async () => {
    const memories = memoriesOn(pools[0] as Pool, 'initech')
    const folder = folderForLayer(workspace, nobody, 'user')
    const added = await memories.add(folder, memoryRecord(folder, 'Initech files TPS reports weekly'), { ...write, identity: nobody })
    if (added.deduplicated) throw new Error('expected a new memory')
    const deleted = await memories.delete(added.stored, write)
    const history = await new TenantScope(async () => pools[0] as Pool, 'initech', 'default', workspace).run(async (client) => {
      const rows = await client.query<{ commit_id: string; op: string; author: string }>('SELECT commit_id, op, author FROM mk_history ORDER BY seq')
      return rows.rows
    })
    expect(history).toEqual([
      { commit_id: added.commit, op: 'add', author: 'Store Contract <store-contract@example.com>' },
      { commit_id: deleted, op: 'delete', author: 'Store Contract <store-contract@example.com>' },
    ])
  })
  // An import of 100,000 memories was two round trips per memory (its row, its search document): a bulk load took hours.
  it('writes a folder of 1,200 memories in a few statements, the last of two with one id kept', async () => {
    const folder = folderForLayer(workspace, nobody, 'project')
    const memories = memoriesOn(pools[0] as Pool, 'bulk')
    const records = Array.from({ length: 1200 }, (_, n) => memoryRecord(folder, `Bulk memory number ${n} about the deploy`))
    const twice = { ...(records[7] as (typeof records)[number]), content: 'Bulk memory seven, written again' }
    const queries = countQueries(pools[0] as Pool)
    try {
      await memories.rewrite(folder, [...records, twice], 'bulk import', write)
    } finally {
      queries.stop()
    }
    expect(queries.sent.length).toBeLessThan(20)
    expect(await memories.ids(folder)).toHaveLength(1200)
    const read = await memories.read(folder, twice.id)
    expect(read !== undefined && 'record' in read ? read.record.content : undefined).toBe('Bulk memory seven, written again')
    const documents = await inTenant(pools[0] as Pool, 'bulk', (client) =>
      client.query<{ count: string }>("SELECT count(*) FROM mk_documents WHERE content LIKE 'Bulk memory%'"),
    )
    expect(Number(documents.rows[0]?.count)).toBe(1200)
  })
})
