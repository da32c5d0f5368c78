import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* eval_run through mk serve reads only the calling tenant's files and writes only inside its workspace. */

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined
let temp: string | undefined

afterEach(async () => {
  await server?.stop()
  server = undefined
  await workspace?.cleanup()
  workspace = undefined
  if (temp !== undefined) await rm(temp, { recursive: true, force: true })
  temp = undefined
})

const teamSet = JSON.stringify({
  memories: [
    { id: 'm1', content: 'Orders are stored in Postgres' },
    { id: 'm2', content: 'The release train leaves on Thursdays' },
  ],
  questions: [{ text: 'where are orders stored', kind: 'lexical', answers: ['m1'] }],
})

async function write(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, content)
}

/** A served error as a tenant would compare two of them: the path it gave replaced. */
function shape(body: Record<string, unknown>, given: string): string {
  return JSON.stringify(body).replaceAll(given, '<given>')
}

describe('eval_run in mk serve', () => {
  it('reads datasets only inside the tenant workspace, answering the same for outside and missing, and writes no temp file', async () => {
    workspace = await makeWorkspace()
    const data = join(workspace.root, 'data')
    const own = join(data, 'tenants', 'team-a', 'workspace')
    await write(join(own, 'sets', 'team.json'), teamSet)
    await write(join(own, 'sets', 'bad.json'), '{"memories": [')
    await write(join(data, 'tenants', 'team-b', 'workspace', 'secret.json'), teamSet)
    await symlink(join(data, 'tenants', 'team-b', 'workspace', 'secret.json'), join(own, 'sets', 'linked.json'))
    temp = await mkdtemp(join(tmpdir(), 'mk-serve-tmp-'))
    server = await startServe({ cwd: workspace.root, args: ['--data', data], env: { MK_HOME: workspace.mkHome, TMPDIR: temp } })
    const evalRun = (dataset: string) => server?.post('/v1/tools/eval_run', { dataset, mode: 'fulltext' }, { 'x-tenant-id': 'team-a' })

    // Each pair differs only in whether the file exists: a tenant must not be able to tell which.
    const otherTenant = join(data, 'tenants', 'team-b', 'workspace')
    const pairs: [string, string][] = [
      ['/etc/passwd', '/etc/no-such-file'],
      ['../../team-b/workspace/secret.json', '../../team-b/workspace/none.json'],
      [join(otherTenant, 'secret.json'), join(otherTenant, 'none.json')],
      ['sets/linked.json', 'sets/missing.json'],
    ]
    for (const [present, absent] of pairs) {
      const refused = await evalRun(`team:${present}`)
      const missing = await evalRun(`team:${absent}`)
      expect(refused?.status, present).toBe(404)
      expect(refused?.body, present).toMatchObject({ errorCode: 'NOT_FOUND' })
      expect(shape(refused?.body ?? {}, present), present).toBe(shape(missing?.body ?? {}, absent))
      expect(JSON.stringify(refused?.body)).not.toContain('root:')
    }

    const ran = await evalRun('team:sets/team.json')
    expect(ran?.status).toBe(200)
    expect(ran?.body).toMatchObject({ dataset: { kind: 'team', documents: 2, queries: 1 } })
    // The bundled team set is a suite the server offers, not a path the tenant names.
    expect((await evalRun('team'))?.status).toBe(200)
    expect(await readdir(temp)).toEqual([])

    // A bad file of its own is named as the tenant knows it; the server's log keeps where it is.
    const bad = await evalRun('team:sets/bad.json')
    expect(bad?.status).toBe(400)
    expect(bad?.body.message).toMatch(/^sets\/bad\.json: not valid JSON/)
    expect(JSON.stringify(bad?.body)).not.toContain(data)
    expect(server.stderr()).toContain(join(own, 'sets', 'bad.json'))
  }, 60_000)

  it('is refused by a read-only server, which it would write to, and writes nothing', async () => {
    workspace = await makeWorkspace({ 'sets/team.json': teamSet })
    temp = await mkdtemp(join(tmpdir(), 'mk-serve-tmp-'))
    server = await startServe({ cwd: workspace.root, args: ['--profile', 'worker', '--read-only'], env: { MK_HOME: workspace.mkHome, TMPDIR: temp } })
    const refused = await server.post('/v1/tools/eval_run', { dataset: 'team:sets/team.json', mode: 'fulltext' })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ errorCode: 'FORBIDDEN' })
    expect(await readdir(temp)).toEqual([])
  }, 60_000)
})
