import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { threadRunner } from '../../../src/hosts/http/tool-threads.js'
import { warmWritePath } from '../../../src/hosts/http/warm-writes.js'
import { bundledModelLoaded, createBundledProvider } from '../../../src/search/embedding/bundled.js'

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
    const runner = threadRunner(2, { layout: { cwd: root, env }, env }, { timeoutMsOf: () => 30_000, graceMs: 1000 })
    expect(runner).toBeDefined()
    if (runner === undefined) return
    try {
      await runner.warmWrites({ bundledModel: false })
      expect(await readdir(root)).toEqual([])
    } finally {
      await runner.close()
    }
  })
})

describe('warming the model a write embeds with', () => {
  // Issue 27: the warm-up search asks a question whose vector is cached on disk, so after a restart
  // no thread loaded the model, and the first new memory or question waited 1 to 3 s for it.
  it('loads the bundled model and keeps it past the last provider closing, when asked', async () => {
    await warmWritePath({ bundledModel: false })
    expect(bundledModelLoaded()).toBe(false)
    await warmWritePath({ bundledModel: true })
    expect(bundledModelLoaded()).toBe(true)
    const provider = createBundledProvider()
    await provider.embed(['a memory'], 'document')
    await provider.close?.()
    expect(bundledModelLoaded()).toBe(true)
  }, 120_000)
})
