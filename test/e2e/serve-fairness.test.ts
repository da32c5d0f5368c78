import { existsSync } from 'node:fs'
import { readdir, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { largeRulesDocuments } from '../../scripts/bench/large-rules.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Spawns the built `mk serve --data` (run `npm run build` first): what one tenant does never holds another. */

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

afterEach(async () => {
  await server?.stop()
  server = undefined
  await workspace?.cleanup()
  workspace = undefined
})

/** The files of the tenant's index the server process holds open. */
async function openIndexFiles(pid: number, tenant: string): Promise<string[]> {
  const links = await Promise.all((await readdir(`/proc/${pid}/fd`)).map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')))
  return links.filter((link) => link.includes(join('tenants', tenant, 'workspace')) && link.includes('index.db'))
}

async function startTenants(env: Record<string, string> = {}): Promise<RunningServe> {
  workspace = await makeWorkspace()
  server = await startServe({ cwd: workspace.root, args: ['--data', join(workspace.root, 'data')], env: { MK_HOME: workspace.mkHome, ...env } })
  return server
}

describe('mk serve keeps tenants from stalling each other', () => {
  it('answers /healthz and another tenant’s search while one tenant’s 1 MB ingest is still running', async () => {
    const served = await startTenants()
    const added = await served.post('/v1/tools/memory_add', { content: 'Deploys need two approvals', layer: 'project' }, { 'x-tenant-id': 'team-b' })
    expect(added.status).toBe(200)
    // Two searches at once open team-b's index (and load the model) on both threads before the ingest starts.
    const warm = await Promise.all(
      ['deploy approvals', 'who approves'].map((query) => served.post('/v1/tools/memory_search', { query }, { 'x-tenant-id': 'team-b' })),
    )
    expect(warm.map((answer) => answer.status)).toEqual([200, 200])

    let ingestDone = false
    const ingest = served
      .post('/v1/tools/rules_upsert_markdown', { documents: largeRulesDocuments(960_000) }, { 'x-tenant-id': 'team-a' })
      .finally(() => (ingestDone = true))
    // The call is running once the server has made team-a's store (its first call creates the folder).
    while (!existsSync(join(workspace?.root ?? '', 'data', 'tenants', 'team-a', 'workspace', '.mkrc')) && !ingestDone) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const health = await fetch(`${served.url}/healthz`)
    const healthAnsweredDuringIngest = !ingestDone
    const search = await served.post('/v1/tools/memory_search', { query: 'deploy approvals' }, { 'x-tenant-id': 'team-b' })
    const searchAnsweredDuringIngest = !ingestDone
    expect(health.status).toBe(200)
    expect(search.status).toBe(200)
    expect((search.body.results as { memoryId: string }[]).map((result) => result.memoryId)).toContain(added.body.memoryId)
    expect({ healthAnsweredDuringIngest, searchAnsweredDuringIngest }).toEqual({ healthAnsweredDuringIngest: true, searchAnsweredDuringIngest: true })
    // The ingest's own length depends on the machine (minutes on a busy one): it is not waited for.
    served.child.kill('SIGKILL')
    await ingest.catch(() => undefined)
    server = undefined
  }, 120_000)

  it('closes the least recently used idle tenant beyond MK_SERVE_MAX_OPEN_TENANTS and reopens it with its data on its next call', async () => {
    const served = await startTenants({ MK_SERVE_MAX_OPEN_TENANTS: '1' })
    const pid = served.child.pid as number
    const first = await served.post('/v1/tools/memory_add', { content: 'The billing service is owned by team red', layer: 'project' }, { 'x-tenant-id': 't1' })
    expect((await served.post('/v1/tools/memory_search', { query: 'billing owner' }, { 'x-tenant-id': 't1' })).status).toBe(200)
    expect(await openIndexFiles(pid, 't1')).not.toEqual([])

    expect((await served.post('/v1/tools/memory_add', { content: 'Runners have two cores', layer: 'project' }, { 'x-tenant-id': 't2' })).status).toBe(200)
    expect((await served.post('/v1/tools/memory_search', { query: 'runner cores' }, { 'x-tenant-id': 't2' })).status).toBe(200)
    // Closing is sent to every thread before t2's first call; one more call of t2 has passed through each thread since.
    await Promise.all([1, 2].map(() => served.post('/v1/tools/memory_list', {}, { 'x-tenant-id': 't2' })))
    expect(await openIndexFiles(pid, 't1')).toEqual([])
    expect(await openIndexFiles(pid, 't2')).not.toEqual([])

    const again = await served.post('/v1/tools/memory_search', { query: 'billing owner' }, { 'x-tenant-id': 't1' })
    expect(again.status).toBe(200)
    expect((again.body.results as { memoryId: string }[]).map((result) => result.memoryId)).toContain(first.body.memoryId)
  })

  it('refuses a body over MK_SERVE_MAX_BODY_BYTES with 413 and INVALID_INPUT naming the limit', async () => {
    const served = await startTenants({ MK_SERVE_MAX_BODY_BYTES: '2048' })
    const tooLarge = await served.post('/v1/tools/memory_add', { content: 'x'.repeat(4096), layer: 'project' }, { 'x-tenant-id': 't1' })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toMatchObject({
      errorCode: 'INVALID_INPUT',
      message: expect.stringContaining('2048 bytes'),
      details: { limit_bytes: 2048, hint: expect.stringContaining('MK_SERVE_MAX_BODY_BYTES') },
    })
    expect((await served.post('/v1/tools/memory_add', { content: 'small enough', layer: 'project' }, { 'x-tenant-id': 't1' })).status).toBe(200)
  })
})
