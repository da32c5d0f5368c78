import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

/**
 * The bundle keeps the build's module graph (scripts/bundle.ts): a module the built command
 * modules in dist/ import only when they run is evaluated in mk's bundle only then too.
 * A command's start-up is what every call of it pays, and `mk memory search` through the
 * workspace's local server never needs more than its start-up and the socket client.
 */
const dist = fileURLToPath(new URL('../../dist/', import.meta.url))

/** Records the URL of every module loaded in the process that registers it. */
const hooks = `
import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  appendFileSync(process.env.MK_TEST_LOADED, url + '\\n')
  return next(url, context)
}
`

let folder: string
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mk-lazy-modules-'))
})
afterEach(async () => rm(folder, { recursive: true, force: true }))

/** The dist/ modules (relative paths) that importing a built command module evaluates. */
async function loadedBy(command: string): Promise<string[]> {
  const hookFile = join(folder, 'hooks.mjs')
  const loaded = join(folder, 'loaded.txt')
  await writeFile(hookFile, hooks)
  await writeFile(loaded, '')
  const script = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hookFile).href)}); await import(${JSON.stringify(pathToFileURL(join(dist, command)).href)})`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, MK_TEST_LOADED: loaded }, encoding: 'utf8' })
  expect(run.stderr).toBe('')
  expect(run.status).toBe(0)
  const prefix = pathToFileURL(dist).href
  return (await readFile(loaded, 'utf8'))
    .split('\n')
    .filter((url) => url.startsWith(prefix))
    .map((url) => url.slice(prefix.length))
}

/** What only a call that runs here needs: the dispatcher, the store it opens, the config it validates, the artifact schemas. */
const localRunOnly = (module: string): boolean =>
  ['src/tools/dispatcher.js', 'src/tools/open-store.js', 'src/tools/artifacts.js', 'src/config/load.js', 'src/config/schema.js'].includes(module) ||
  module.startsWith('src/stores/')

describe('what a memory command loads before it runs', () => {
  it('mk memory search loads no dispatcher, store or config validation: a search the local server answers never uses them', async () => {
    const loaded = await loadedBy('commands/memory/search.js')
    expect(loaded).toContain('src/hosts/cli/base-command.js')
    expect(loaded.filter(localRunOnly)).toEqual([])
  })

  it('mk memory add loads them only when it runs', async () => {
    const loaded = await loadedBy('commands/memory/add.js')
    expect(loaded).toContain('src/tools/memory/add.js')
    expect(loaded.filter(localRunOnly)).toEqual([])
  })
})
