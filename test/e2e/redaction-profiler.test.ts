import { spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mkBin, mkEnv } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/** Loaded before mk: at exit it writes how many performance marks the process made. */
const countMarksAtExit = `process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.MARKS_FILE, String(performance.getEntriesByType('mark').length))
})
`

// scripts/bundle.ts (no-secretlint-profiler): secretlint's profiler marked every step of every redaction and kept them all.
describe('redaction in the built mk', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('redacts a secret without marking the performance timeline', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const preload = join(workspace.root, 'count-marks.cjs')
    const marksFile = join(workspace.root, 'marks.txt')
    await writeFile(preload, countMarksAtExit)
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'
    const run = spawnSync(process.execPath, ['--require', preload, mkBin, 'memory', 'add', `the CI token is ${secret}`, '--json'], {
      cwd: workspace.root,
      env: { ...mkEnv({ MK_HOME: workspace.mkHome }), MARKS_FILE: marksFile },
      encoding: 'utf8',
    })
    expect(run.status, run.stderr).toBe(0)
    const output = JSON.parse(run.stdout) as { redactions: { kind: string; count: number }[] }
    expect(output.redactions.length).toBeGreaterThan(0)
    expect(run.stdout).not.toContain(secret)
    expect(await readFile(marksFile, 'utf8')).toBe('0')
  })
})
