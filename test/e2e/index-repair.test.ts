import { randomBytes } from 'node:crypto'
import { openSync, closeSync, fstatSync, writeSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface DoctorOutput {
  healthy: boolean
  checks: { name: string; status: string; message: string; fix?: string }[]
}

/** Random bytes over the last part of the file, where the vector table's pages are written last. */
function scribbleOverTheBack(file: string, fraction: number): void {
  const fd = openSync(file, 'r+')
  try {
    const size = fstatSync(fd).size
    const length = Math.floor(size * fraction)
    writeSync(fd, randomBytes(length), 0, length, size - length)
  } finally {
    closeSync(fd)
  }
}

// Issue 11.3: a damaged index is always rebuilt from the files, and doctor says it is damaged.
describe('a corrupt index', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('is reported by doctor and repaired by mk index rebuild', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '' }))
    const mk = (args: string[]): Promise<MkRun> =>
      runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    const facts = [
      'We store everything in Postgres 15',
      'Pipelines run on GitHub Actions',
      'Metrics live in Grafana, fed by Prometheus',
      'The staging database is read-only on Fridays',
    ]
    for (const fact of facts) expect((await mk(['memory', 'add', fact, '--layer', 'project', '--json'])).exitCode).toBe(0)
    const updated = await mk(['index', 'update', '--json'])
    expect(updated.exitCode, updated.stderr).toBe(0)
    expect(parseJson<{ pendingEmbeddings: number; searchMode: string }>(updated)).toMatchObject({ pendingEmbeddings: 0, searchMode: 'hybrid' })

    const indexFile = join(workspace.root, '.mk', 'index.db')
    scribbleOverTheBack(indexFile, 0.4)

    const doctor = await mk(['doctor', '--offline', '--json'])
    const index = parseJson<DoctorOutput>(doctor).checks.find((check) => check.name === 'index')
    expect(index, doctor.stdout).toMatchObject({ status: 'fail', fix: 'mk index rebuild' })

    const rebuilt = await mk(['index', 'rebuild', '--json'])
    expect(rebuilt.exitCode, rebuilt.stdout + rebuilt.stderr).toBe(0)
    expect(parseJson<{ memories: number; pendingEmbeddings: number }>(rebuilt)).toMatchObject({ memories: 4, pendingEmbeddings: 0 })

    const searched = await mk(['memory', 'search', 'which CI do we use', '--json'])
    expect(searched.exitCode, searched.stderr).toBe(0)
    expect(parseJson<{ results: { content: string }[] }>(searched).results.map((result) => result.content)).toContain('Pipelines run on GitHub Actions')
    const healthy = parseJson<DoctorOutput>(await mk(['doctor', '--offline', '--json'])).checks.find((check) => check.name === 'index')
    expect(healthy?.status).toBe('ok')
    expect((await readdir(join(workspace.root, '.mk'))).filter((name) => name.includes('rebuild'))).toEqual([])
  })

  it('is named by doctor when it was found truncated and recreated, and is current again after a query', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/adr/adr-0001-x.md': '---\ntitle: Use PostgreSQL\nstatus: accepted\n---\n# Use PostgreSQL\n' }))
    const mk = (args: string[]): Promise<MkRun> => runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect((await mk(['knowledge', 'query', 'PostgreSQL', '--json'])).exitCode).toBe(0)
    await workspace.write('.mk/index.db', 'SQLite format 3\u0000 cut short')
    const doctor = parseJson<DoctorOutput>(await mk(['doctor', '--offline', '--json'])).checks.find((check) => check.name === 'index')
    expect(doctor).toMatchObject({ status: 'warn', message: expect.stringContaining('truncated') })
    expect((await mk(['knowledge', 'query', 'PostgreSQL', '--json'])).exitCode).toBe(0)
    const after = parseJson<DoctorOutput>(await mk(['doctor', '--offline', '--json'])).checks.find((check) => check.name === 'index')
    expect(after).toMatchObject({ status: 'ok' })
  })
})
