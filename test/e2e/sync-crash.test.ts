import { spawn } from 'node:child_process'
import { mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGitServer, type GitServer } from '../helpers/git-server.js'
import { mkBin, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const runs = 12

function adr(n: number): string {
  return ['---', `id: adr-${1000 + n}-decision`, 'type: adr', `title: Decision ${n}`, 'status: accepted', '---', `# Decision ${n}`, '', 'Text.', ''].join('\n')
}

function syncKilledAfter(ws: TempWorkspace, args: string[], delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [mkBin, 'sync', ...args], {
      cwd: ws.root,
      env: { ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1' },
      stdio: 'ignore',
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs)
    child.on('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

// Issue 11.2: kill -9 at random moments of mk sync (first clones and forced re-clones); the next
// sync ends with a whole clone and no temp or displaced clone left beside it.
describe('mk sync killed at random moments', () => {
  let server: GitServer
  let ws: TempWorkspace
  beforeAll(async () => {
    server = await startGitServer()
  })
  afterAll(async () => {
    await server.close()
    await ws.cleanup()
  })

  it(`ends with a whole clone after ${runs} kills`, async () => {
    const remote = await server.createRepo(
      'company-crash',
      Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`adr/adr-${1000 + n}-decision.md`, adr(n)])),
    )
    ws = await makeWorkspace({ '.mkrc': ['knowledge:', '  sources:', `    - {name: company, layer: company, url: "${remote.url}"}`].join('\n') + '\n' })
    for (let run = 0; run < runs; run++) await syncKilledAfter(ws, run % 2 === 0 ? [] : ['--force'], 150 + Math.floor(Math.random() * 900))
    const synced = await runMk(['sync', '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    expect(synced.exitCode, synced.stdout + synced.stderr).toBe(0)
    const listed = await runMk(['knowledge', 'list', '--layer', 'company', '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    expect(parseJson<{ items: unknown[] }>(listed).items).toHaveLength(40)
    const left = (await readdir(join(ws.mkHome, 'sources'))).filter((name) => name !== 'company' && !name.endsWith('.lock'))
    expect(left).toEqual([])
  }, 120_000)

  it('removes the temp and displaced clones of a sync killed between its two renames, even when nothing changed upstream', async () => {
    const dead = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => dead.on('close', resolve))
    for (const name of [`.company.clone-${dead.pid}-1700000000000`, `.company.clone-${dead.pid}-1700000000000.old`]) {
      await mkdir(join(ws.mkHome, 'sources', name, '.git'), { recursive: true })
    }
    const synced = await runMk(['sync', '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    expect(synced.exitCode, synced.stdout + synced.stderr).toBe(0)
    expect((await readdir(join(ws.mkHome, 'sources'))).filter((name) => name.includes('.clone-'))).toEqual([])
  })
})
