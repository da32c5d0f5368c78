import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { codeCacheFileFor } from '../src/hosts/cli/load-bundle.js'

/**
 * Write the bundle's V8 code caches at build time (src/hosts/cli/load-bundle.ts). The shared
 * cache comes from a run of `mk knowledge check` on this repository: it then holds the start-up
 * path every command shares and the whole check, not whatever command a user happens to run
 * first. The commands with a cache of their own (codeCacheName) are run as a user runs them:
 * `mk memory add` in a workspace, `mk memory search` through the workspace's local server.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const folder = `${root}dist/bundle`
const mk = join(root, 'bin', 'run.js')
/** Generous: a loaded build machine starts the server in a few seconds. */
const serverStartMs = 120_000
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

const check = spawnSync(process.execPath, [mk, 'knowledge', 'check'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
// 0 or 1 (violations found) ran the whole check; 2 stopped early, and the cache would miss most of it.
if (check.status !== 0 && check.status !== 1) fail(`mk knowledge check exited ${check.status}`, check)

// A scratch workspace and MK_HOME: the build never writes into the builder's own.
// Short names: the server's socket path must stay within the 104 bytes macOS allows.
const scratch = await mkdtemp(join(tmpdir(), 'mk-warm-'))
const workspace = join(scratch, 'ws')
const env = { ...process.env, MK_HOME: join(scratch, 'home'), NO_COLOR: '1' }
try {
  await mkdir(join(workspace, 'knowledge', 'memory'), { recursive: true })
  // No model in the server: what the client runs does not depend on it, and the server starts at once.
  await writeFile(join(workspace, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
  for (const content of ['The staging database is read-only on Fridays', 'Deploys to staging need a green pipeline']) {
    // The first add also creates MK_HOME's memory history, which no later add does: its cache is not kept.
    await rm(join(folder, cacheOf(['memory', 'add'])), { force: true })
    const add = spawnSync(process.execPath, [mk, 'memory', 'add', content], { cwd: workspace, env, encoding: 'utf8' })
    if (add.status !== 0) fail(`mk memory add exited ${add.status}`, add)
  }
  await searchThroughLocalServer()
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

/** `mk memory search` as a terminal runs it beside `mk daemon start`: the client's side of the socket. */
async function searchThroughLocalServer(): Promise<void> {
  // MK_LOG=json: the server logs each call, which shows the search was answered there.
  const server = spawn(process.execPath, [mk, 'serve', '--socket', join('.mk', 'serve.sock')], {
    cwd: workspace,
    env: { ...env, MK_LOG: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  let logged = ''
  server.stderr.on('data', (chunk: Buffer) => (logged += chunk.toString('utf8')))
  try {
    await new Promise<void>((resolve, reject) => {
      let printed = ''
      server.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString('utf8')
        if (printed.includes('listening on')) resolve()
      })
      server.once('exit', (code) => reject(new Error(`mk serve --socket exited ${code} before it listened:\n${logged}`)))
      setTimeout(() => reject(new Error(`mk serve --socket did not listen within ${serverStartMs / 1000} s:\n${logged}`)), serverStartMs).unref()
    })
    const search = spawnSync(process.execPath, [mk, 'memory', 'search', 'staging database'], { cwd: workspace, env, encoding: 'utf8' })
    // Thrown, not fail(): the server is stopped on the way out.
    if (search.status !== 0) throw new Error(`mk memory search exited ${search.status}\n${search.stderr}`)
  } finally {
    server.kill()
    await exited
  }
  if (!logged.includes('memory_search')) fail(`mk memory search was not answered by the local server; its log:\n${logged}`)
}
