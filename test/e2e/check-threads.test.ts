import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCheckWorkspace } from '../../scripts/bench/check-workspace.js'
import { expectCleanError, runMk } from '../helpers/mk.js'

const formats = ['json', 'text', 'sarif'] as const
const oneThread = { MK_CHECK_THREADS: '0' }
/** Scan threads for any number of files, so that a small workspace uses them. */
const threads = { MK_CHECK_THREADS: '2', MK_CHECK_THREADS_FROM: '1' }

/**
 * Issue 18: a check that shares its files with scan threads prints exactly
 * what a check on one thread prints, in every format, with and without the
 * scan cache, for the working tree and for named files.
 */
describe('knowledge check on scan threads', () => {
  let root: string

  async function outputs(args: readonly string[], env: Record<string, string>, clearCache: boolean): Promise<string[]> {
    const printed: string[] = []
    for (const format of formats) {
      if (clearCache) rmSync(join(root, '.mk', 'cache'), { recursive: true, force: true })
      const run = await runMk(['knowledge', 'check', ...args, '--format', format], { cwd: root, env: { ...env, MK_HOME: join(root, '..', 'home') } })
      printed.push(`exit ${run.exitCode}\n${run.stdout}${run.stderr}`)
    }
    return printed
  }

  beforeAll(async () => {
    ;({ root } = await makeCheckWorkspace(400))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('the working tree: the same output on threads as on one thread, cold and from the cache the threads wrote', async () => {
    const expected = await outputs([], oneThread, true)
    expect(expected[0]).toContain('exit 1')
    expect(await outputs([], threads, true)).toEqual(expected)
    expect(await outputs([], threads, false)).toEqual(expected)
  }, 300_000)

  it('named files: the same output on threads as on one thread', async () => {
    const files = ['--files', 'src/module0/file0.ts', 'lib/module2/file2.ts', 'package.json', 'services/module13/file13.ts']
    expect(await outputs(files, threads, true)).toEqual(await outputs(files, oneThread, true))
  }, 300_000)

  it('a bad MK_CHECK_THREADS or MK_CHECK_THREADS_FROM is a clear error, exit 2', async () => {
    for (const [variable, value] of [
      ['MK_CHECK_THREADS', 'many'],
      ['MK_CHECK_THREADS_FROM', '-5'],
    ] as const) {
      const run = await runMk(['knowledge', 'check'], { cwd: root, env: { [variable]: value, MK_HOME: join(root, '..', 'home') } })
      expect(expectCleanError(run)).toContain(`${variable} must be a whole number`)
    }
  }, 120_000)
})
