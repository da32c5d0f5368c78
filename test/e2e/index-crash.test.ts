import { spawn } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkBin, parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const runs = 20

/** Start `mk index rebuild` and SIGKILL it after `delayMs`, or let it finish if it is quicker. */
function rebuildKilledAfter(ws: TempWorkspace, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const env = { ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1', MK_AGENT_ID: '', MK_SESSION_ID: '' }
    const child = spawn(process.execPath, [mkBin, 'index', 'rebuild'], { cwd: ws.root, env, stdio: 'ignore' })
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs)
    child.on('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

// Issue 11: kill -9 at random moments of `mk index rebuild`; the next command always has a whole index and nothing is left behind.
describe('mk index rebuild killed at random moments', () => {
  let ws: TempWorkspace
  let mk: (args: string[]) => Promise<MkRun>
  beforeAll(async () => {
    ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
    mk = (args) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    for (let n = 0; n < 30; n++)
      await ws.write(
        `knowledge/memory/mem_01JCRASH${String(n).padStart(18, '0')}.md`,
        `---\nid: mem_01JCRASH${String(n).padStart(18, '0')}\nlayer: project\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\nfact number ${n} about the crash test\n`,
      )
    const first = await mk(['index', 'rebuild', '--json'])
    expect(first.exitCode, first.stderr).toBe(0)
  }, 60_000)
  afterAll(() => ws.cleanup())

  it(`ends with a whole index after ${runs} kills`, async () => {
    // Spread the kills over start-up, reading and writing: from 0 to about one rebuild's length.
    for (let run = 0; run < runs; run++) await rebuildKilledAfter(ws, Math.floor(Math.random() * 700))
    const listed = await mk(['memory', 'list', '--layer', 'project', '--limit', '100', '--json'])
    expect(listed.exitCode, listed.stderr).toBe(0)
    expect(parseJson<{ memories: unknown[] }>(listed).memories).toHaveLength(30)
    const found = await mk(['memory', 'search', 'crash test', '--limit', '50', '--json'])
    expect(found.exitCode, found.stderr).toBe(0)
    expect(parseJson<{ results: unknown[] }>(found).results).toHaveLength(30)
    const rebuilt = await mk(['index', 'rebuild', '--json'])
    expect(rebuilt.exitCode, rebuilt.stderr).toBe(0)
    expect((await readdir(join(ws.root, '.mk'))).filter((name) => name.includes('.rebuild-'))).toEqual([])
  }, 120_000)
})
