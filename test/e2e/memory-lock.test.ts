import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// Issue 25 item 14: after a reboot the pid in a left-over lock can belong to a live process that
// is not mk; mk answers CONFLICT at once, naming the lock file and how to clear it, instead of
// waiting its whole timeout for a process that will never let go.
describe('a memory lock whose pid now runs something else', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('answers CONFLICT with the fix at once', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const sleeper = spawn('sleep', ['120'], { stdio: 'ignore' })
    await once(sleeper, 'spawn')
    try {
      const lock = join(workspace.mkHome, '.locks', 'memory')
      await mkdir(join(workspace.mkHome, '.locks'), { recursive: true })
      await writeFile(lock, `${sleeper.pid}\n${hostname()}\n0123456789abcdef\n`)
      const added = await runMk(['memory', 'add', 'a fact after the reboot', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
      expect(added.exitCode).toBe(2)
      const error = parseJson<{ errorCode: string; message: string; details: { lock: string; hint: string; command: string } }>(added)
      expect(error.errorCode).toBe('CONFLICT')
      expect(error.details.lock).toBe(lock)
      expect(error.details.command).toBe('sleep 120')
      expect(error.details.hint).toContain(`rm '${lock}'`)

      const human = await runMk(['memory', 'add', 'a fact after the reboot'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
      expect(human.exitCode).toBe(2)
      expect(human.stderr).toContain(`rm '${lock}'`)
    } finally {
      sleeper.kill()
    }
    // The old answer was TIMEOUT after a minute of waiting: this test's limit fails it first.
  }, 20_000)
})
