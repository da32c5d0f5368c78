import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { throwawayVectorDatabase } from '../helpers/pglite.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * Spawns the built `mk serve --store postgres://…` on PGlite with pgvector (run `npm run build`
 * first). PGlite is one session (test/helpers/pglite.ts): one tool thread with two connections.
 */
const database = throwawayVectorDatabase({ extension: true })

describe('mk serve on a database with pgvector', () => {
  let workspace: TempWorkspace
  let server: RunningServe
  beforeAll(async () => {
    workspace = await makeWorkspace()
    server = await startServe({
      cwd: workspace.root,
      args: ['--data', join(workspace.root, 'data'), '--store', database.database().url],
      env: { MK_HOME: workspace.mkHome, MK_SERVE_THREADS: '1', MK_STORE_POOL_SIZE: '2' },
    })
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    await workspace?.cleanup()
  })

  it('says at start, in /readyz and in doctor_check that pgvector searches the vectors', async () => {
    expect(server.started.store).toMatchObject({ kind: 'postgres', vectors: 'pgvector', pgvector: { dimensions: 512, iterativeScan: true } })
    const ready = await server.ready()
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ status: 'ready', store: { kind: 'postgres', vectors: 'pgvector', rls: 'enforced' } })
    const doctor = await server.post('/v1/tools/doctor_check', { offline: true }, { 'x-tenant-id': 'acme' })
    expect(doctor.status).toBe(200)
    const store = (doctor.body.checks as { name: string; status: string; message: string }[]).find((check) => check.name === 'store')
    expect(store?.message).toMatch(
      /^postgres: postgres 127\.0\.0\.1:\d+\/mk \(tenant acme, scope default; vectors searched by pgvector 0\.\d+\.\d+ \(HNSW\)\)$/,
    )
  })

  it("finds what was just added, and never another tenant's memory", async () => {
    const added = await server.post(
      '/v1/tools/memory_add',
      { content: 'Deploys need two approvals from the platform team', layer: 'project' },
      { 'x-tenant-id': 'acme' },
    )
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    const other = await server.post(
      '/v1/tools/memory_add',
      { content: 'Releases require sign-off by two reviewers', layer: 'project' },
      { 'x-tenant-id': 'globex' },
    )
    expect(other.status, JSON.stringify(other.body)).toBe(200)
    const search = await server.post('/v1/tools/memory_search', { query: 'who has to approve a release' }, { 'x-tenant-id': 'acme' })
    expect(search.status, JSON.stringify(search.body)).toBe(200)
    expect((search.body.results as { memoryId: string }[]).map((result) => result.memoryId)).toEqual([added.body.memoryId])
  })
})
