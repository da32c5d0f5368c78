import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { threadRunner } from '../../../src/hosts/http/tool-threads.js'

// Issue 27: a thread's first memory_add loaded the write path's modules and compiled the secret
// rules (150 to 350 ms under load). `mk serve` now has every thread do that before it is ready.

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mk-warm-writes-'))
})
afterEach(() => rm(root, { recursive: true, force: true }))

describe('warming the write path', () => {
  it('is answered by every tool thread, and writes nothing', async () => {
    const env = { MK_HOME: join(root, 'home') }
    // The compiled thread (npm run build): the same file `mk serve` starts.
    const runner = threadRunner(2, { layout: { cwd: root, env }, env })
    expect(runner).toBeDefined()
    if (runner === undefined) return
    try {
      await runner.warmWrites()
      expect(await readdir(root)).toEqual([])
    } finally {
      await runner.close()
    }
  })
})
