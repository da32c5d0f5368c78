import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { codeCacheFileFor } from '../src/hosts/cli/load-bundle.js'

/**
 * Write the bundle's V8 code caches at build time (src/hosts/cli/load-bundle.ts). The shared
 * cache comes from a run of `mk knowledge check` on this repository: it then holds the start-up
 * path every command shares and the whole check, not whatever command a user happens to run
 * first. The commands with a cache of their own (codeCacheName) are run as a user runs them in a
 * workspace: `mk memory add`, and `mk memory search` where no local server answers it first.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const folder = `${root}dist/bundle`
const mk = join(root, 'bin', 'run.js')
const bundleFile = join(folder, 'mk.cjs')
const bundle = await readFile(bundleFile, 'latin1')

/** The file name of a command's code cache in `folder` (src/hosts/cli/load-bundle.ts). */
function cacheOf(command: readonly string[]): string {
  return basename(codeCacheFileFor(bundleFile, bundle, command))
}

function fail(message: string, run?: SpawnSyncReturns<string>): never {
  process.stderr.write(`warm-code-cache: ${message}\n${run?.stderr ?? ''}`)
  process.exit(1)
}

// Every cache in the folder goes: earlier builds' (which a packed package would carry), and this build's that
// whatever ran the bundle before (the oclif manifest's writer) left with only what it compiled, which no run replaces.
const caches = (await readdir(folder)).filter((name) => name.endsWith('.code-cache'))
await Promise.all(caches.map((name) => rm(join(folder, name), { force: true })))
// Without the builder's NODE_OPTIONS: under it mk writes no code cache (src/hosts/cli/load-bundle.ts).
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS'))
const check = spawnSync(process.execPath, [mk, 'knowledge', 'check'], { cwd: root, env: plainEnv, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
// 0 or 1 (violations found) ran the whole check; 2 stopped early, and the cache would miss most of it.
if (check.status !== 0 && check.status !== 1) fail(`mk knowledge check exited ${check.status}`, check)

// A scratch workspace and MK_HOME: the build never writes into the builder's own.
const scratch = await mkdtemp(join(tmpdir(), 'mk-warm-'))
const workspace = join(scratch, 'ws')
const env = { ...plainEnv, MK_HOME: join(scratch, 'home'), NO_COLOR: '1' }
try {
  await mkdir(join(workspace, 'knowledge', 'memory'), { recursive: true })
  // No model: loading one is not what a search's start-up compiles.
  await writeFile(join(workspace, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
  for (const content of ['The staging database is read-only on Fridays', 'Deploys to staging need a green pipeline']) {
    // The first add also creates MK_HOME's memory history, which no later add does: its cache is not kept.
    await rm(join(folder, cacheOf(['memory', 'add'])), { force: true })
    const add = spawnSync(process.execPath, [mk, 'memory', 'add', content], { cwd: workspace, env, encoding: 'utf8' })
    if (add.status !== 0) fail(`mk memory add exited ${add.status}`, add)
  }
  // In the process: through a running local server bin/run.js answers a search before the bundle loads (search-fast-path.ts).
  const search = spawnSync(process.execPath, [mk, 'memory', 'search', 'staging database'], { cwd: workspace, env, encoding: 'utf8' })
  if (search.status !== 0) fail(`mk memory search exited ${search.status}`, search)
} finally {
  await rm(scratch, { recursive: true, force: true })
}

const written = await readdir(folder)
for (const command of [
  ['knowledge', 'check'],
  ['memory', 'add'],
  ['memory', 'search'],
]) {
  if (!written.includes(cacheOf(command))) fail(`mk ${command.join(' ')} wrote no code cache ${cacheOf(command)} in ${folder}`)
}
