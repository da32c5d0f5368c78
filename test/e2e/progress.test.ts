import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { mkBin, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/** util-linux `script` gives the command a real terminal, the only place mk draws its ink progress bar. */
const hasScript = spawnSync('script', ['--version']).status === 0

let ws: TempWorkspace | undefined
afterEach(async () => ws?.cleanup())

describe('progress on a terminal', () => {
  it.skipIf(!hasScript)('draws a bar with ink, imported at run time by the bundle, while the index is rebuilt', async () => {
    ws = await makeWorkspace({ 'knowledge/.keep': '' })
    for (const fact of ['the build cache lives in bucket one', 'deploys go out on tuesdays', 'the staging database is postgres 16']) {
      expect((await runMk(['memory', 'add', fact], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })).exitCode).toBe(0)
    }
    const shell = `stty cols 100 rows 30; ${JSON.stringify(process.execPath)} ${JSON.stringify(mkBin)} index rebuild`
    const run = spawnSync('script', ['-qec', shell, '/dev/null'], { cwd: ws.root, encoding: 'utf8', env: { ...process.env, MK_HOME: ws.mkHome } })
    expect(run.status, run.stdout).toBe(0)
    // The bar's filled cells, drawn by ink; plain progress lines have none.
    expect(run.stdout).toContain('█')
    expect(run.stdout).toContain('Rebuilt the index: 3 documents')
  })
})
