import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface DoctorOutput {
  healthy: boolean
  checks: { name: string; status: string; message: string }[]
}

function git(cwd: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`)
}

// Issue 11.15: doctor and sync status say what is true.
describe('doctor and sync status', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('see the hook from a linked work tree, and call a workspace with only local sources healthy', async () => {
    const workspace = (ws = await makeWorkspace({ 'README.md': '# app\n' }))
    const mk = (args: string[], cwd: string): Promise<MkRun> => runMk(args, { cwd, env: { MK_HOME: workspace.mkHome } })
    git(workspace.root, 'init', '-q', '-b', 'main')
    expect((await mk(['init'], workspace.root)).exitCode).toBe(0)
    git(workspace.root, 'add', '.')
    git(workspace.root, 'commit', '-qm', 'start')
    const linked = join(workspace.root, '..', 'linked')
    git(workspace.root, 'worktree', 'add', '-q', linked)

    const status = await mk(['sync', 'status', '--offline', '--json'], linked)
    expect(status.exitCode, status.stdout).toBe(0)
    expect(parseJson<{ healthy: boolean }>(status).healthy).toBe(true)

    expect((await mk(['hook', 'install'], linked)).exitCode).toBe(0)
    const doctor = parseJson<DoctorOutput>(await mk(['doctor', '--offline', '--json'], linked))
    expect(doctor.checks.find((check) => check.name === 'pre-commit hook')).toMatchObject({ status: 'ok' })
  })
})
