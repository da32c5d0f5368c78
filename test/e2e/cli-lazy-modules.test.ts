import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
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
const mkBin = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

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

/**
 * Records where the process compares strings by locale (which sets up ICU's collator) and,
 * at exit, every file require() loaded.
 */
const probe = `
const { appendFileSync, writeFileSync } = require('node:fs')
const compare = String.prototype.localeCompare
String.prototype.localeCompare = function (...args) {
  appendFileSync(process.env.MK_TEST_LOCALE, new Error().stack.split('\\n')[2] + '\\n')
  return compare.apply(this, args)
}
const Collator = Intl.Collator
Intl.Collator = function (...args) {
  appendFileSync(process.env.MK_TEST_LOCALE, 'Intl.Collator' + new Error().stack.split('\\n')[2] + '\\n')
  return new Collator(...args)
}
process.on('exit', () => {
  appendFileSync(process.env.MK_TEST_REQUIRED, process.argv.slice(2, 4).join(' ') + ': ' + Object.keys(require.cache).join('\\t') + '\\n')
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length))
  appendFileSync(process.env.MK_TEST_BUILTINS, process.argv.slice(2, 4).join(' ') + ': ' + builtins.join(' ') + '\\n')
})
`

/** Runs the built mk as a person would: mk -v, then an add and a search in a fresh workspace; returns what the probe recorded. */
async function probeBuiltMk(): Promise<{ localeCalls: string; required: Map<string, string[]>; builtins: Map<string, string[]> }> {
  const probeFile = join(folder, 'probe.cjs')
  const localeCalls = join(folder, 'locale.txt')
  const required = join(folder, 'required.txt')
  const builtins = join(folder, 'builtins.txt')
  const workspace = join(folder, 'workspace')
  await mkdir(join(workspace, 'knowledge', 'memory'), { recursive: true })
  await writeFile(probeFile, probe)
  await writeFile(localeCalls, '')
  await writeFile(required, '')
  await writeFile(builtins, '')
  const env = {
    ...process.env,
    // vitest sets NODE_ENV=test, under which oclif loads TypeScript to run sources: a person's mk never does.
    NODE_ENV: undefined,
    MK_HOME: join(folder, 'home'),
    MK_TEST_LOCALE: localeCalls,
    MK_TEST_REQUIRED: required,
    MK_TEST_BUILTINS: builtins,
    NO_COLOR: '1',
  }
  for (const args of [['-v'], ['memory', 'add', 'The staging database is read-only on Fridays'], ['memory', 'search', 'staging database']]) {
    const run = spawnSync(process.execPath, ['--require', probeFile, mkBin, ...args], { cwd: workspace, env, encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
  }
  const byCommand = async (file: string, separator: string): Promise<Map<string, string[]>> =>
    new Map(
      (await readFile(file, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line): [string, string[]] => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2).split(separator)]),
    )
  return { localeCalls: await readFile(localeCalls, 'utf8'), required: await byCommand(required, '\t'), builtins: await byCommand(builtins, ' ') }
}

describe('what the built mk sets up to start', () => {
  it('compares no strings by locale for mk -v, mk memory add and mk memory search: the collator costs every start milliseconds', async () => {
    expect((await probeBuiltMk()).localeCalls).toBe('')
  })

  it('loads none of node:readline, node:perf_hooks and node:child_process for mk memory add: each costs every start 1-3 ms', async () => {
    const added = (await probeBuiltMk()).builtins.get('memory add')
    expect(added).toContain('fs')
    expect(added?.filter((builtin) => ['readline', 'perf_hooks', 'child_process'].includes(builtin))).toEqual([])
  })

  it("reads better-sqlite3's JavaScript from the bundle and only its native addon from the package", async () => {
    const { required } = await probeBuiltMk()
    const fromPackage = [...required.values()].flat().filter((file) => /[/\\]better-sqlite3[/\\]/.test(file))
    expect([...new Set(fromPackage)]).toEqual([expect.stringMatching(/[/\\]better-sqlite3[/\\]build[/\\]Release[/\\]better_sqlite3\.node$/)])
  })

  it('mk memory add opens the index without requiring sqlite-vec: resolving the package costs 3 ms, and an add never compares vectors', async () => {
    const added = (await probeBuiltMk()).required.get('memory add')
    expect(added).toContainEqual(expect.stringMatching(/better_sqlite3\.node$/))
    expect(added?.filter((file) => /[/\\]sqlite-vec[/\\]/.test(file))).toEqual([])
  })
})
