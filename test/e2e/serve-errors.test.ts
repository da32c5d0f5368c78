import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* What mk serve tells a tenant about a failure names the tenant's own paths, never the server's layout. */

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

afterEach(async () => {
  await server?.stop()
  server = undefined
  await workspace?.cleanup()
  workspace = undefined
})

describe('errors a tenant of mk serve is sent', () => {
  it('name its paths relative to its workspace and no server path; the server log keeps the absolute one', async () => {
    workspace = await makeWorkspace()
    const data = join(workspace.root, 'data')
    await mkdir(join(data, 'tenants', 'team-a', 'workspace', 'knowledge'), { recursive: true })
    server = await startServe({ cwd: workspace.root, args: ['--data', data], env: { MK_HOME: workspace.mkHome } })
    const refused = await server.post('/v1/tools/knowledge_check', { paths: ['../../team-b/workspace/x.ts'] }, { 'x-tenant-id': 'team-a' })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain('"../../team-b/workspace/x.ts" is outside the workspace')
    expect(JSON.stringify(refused.body)).not.toContain(data)
    expect(server.stderr()).toContain(join(data, 'tenants', 'team-a', 'workspace'))
  }, 60_000)
})
