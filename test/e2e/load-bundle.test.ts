import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { codeCacheFileFor } from '../../src/hosts/cli/load-bundle.js'

const loader = new URL('../../dist/src/hosts/cli/load-bundle.js', import.meta.url).href

/** A bundle as scripts/bundle.ts writes one: its build line, then CommonJS inside Node's module wrapper. */
const built = (id: string, code: string): string => `//mk-build:${id}\n(function (exports, require, module, __filename, __dirname) { ${code}\n});`

/** A bundle shaped like mk's: a package imported at run time (as src/import-package.ts does), and `run`. */
const bundleSource = built(
  '0001',
  `exports.run = async () => {
  const { tmpdir } = await globalThis[Symbol.for('mk.importPackage')]('node:os')
  const again = require(__filename)
  console.log(JSON.stringify({ sameInstance: again === module.exports, dynamicImport: typeof tmpdir }))
  process.exit()
}`,
)

let folder: string
let bundle: string
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mk-load-bundle-'))
  bundle = join(folder, 'bundle.cjs')
  await writeFile(bundle, bundleSource)
})
afterEach(async () => rm(folder, { recursive: true, force: true }))

/** Node's options in the environment of the runs below: none unless a test sets some. */
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS'))

function launch(args: readonly string[] = [], nodeOptions?: string): { stdout: string; stderr: string; status: number | null } {
  const script = `import { loadBundle } from ${JSON.stringify(loader)}; await loadBundle(${JSON.stringify(bundle)}, ${JSON.stringify(args)}).run('')`
  const env = nodeOptions === undefined ? plainEnv : { ...plainEnv, NODE_OPTIONS: nodeOptions }
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env })
  return { stdout: result.stdout, stderr: result.stderr, status: result.status }
}

describe('loadBundle', () => {
  it('runs the bundle as the one instance require() returns, importing packages through the launcher', () => {
    const run = launch()
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ sameInstance: true, dynamicImport: 'function' })
    expect(run.stderr).toBe('')
  })

  it('writes a code cache on the first run, then runs from it without rewriting it', async () => {
    const cache = `${bundle}.0001.code-cache`
    launch()
    const written = await stat(cache)
    expect(written.size).toBeGreaterThan(0)
    const second = launch()
    expect(second.status).toBe(0)
    expect(JSON.parse(second.stdout)).toEqual({ sameInstance: true, dynamicImport: 'function' })
    expect((await stat(cache)).mtimeMs).toBe(written.mtimeMs)
  })

  it('keeps a cache of their own for the commands that have one, and the shared cache for the rest', async () => {
    launch(['memory', 'add', 'a fact', '--layer', 'project'])
    launch(['--json', 'memory', 'search', 'a question'])
    launch(['memory', 'list'])
    expect((await readdir(folder)).filter((name) => name.endsWith('.code-cache')).sort()).toEqual([
      'bundle.cjs.0001.code-cache',
      'bundle.cjs.0001.memory-add.code-cache',
      'bundle.cjs.0001.memory-search.code-cache',
    ])
  })

  it('reads the cache under NODE_OPTIONS but never writes one there, where V8 would reject the plain cache', async () => {
    const plain = `${bundle}.0001.code-cache`
    launch()
    const written = await stat(plain)
    const run = launch([], '--max-old-space-size=192')
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ sameInstance: true })
    expect((await stat(plain)).mtimeMs).toBe(written.mtimeMs)
    expect((await readdir(folder)).filter((name) => name.endsWith('.code-cache'))).toEqual(['bundle.cjs.0001.code-cache'])
  })

  it('replaces a damaged cache and still runs the bundle', async () => {
    const cache = `${bundle}.0001.code-cache`
    await writeFile(cache, 'not a V8 code cache')
    const run = launch()
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ sameInstance: true })
    expect((await readFile(cache)).toString('latin1')).not.toBe('not a V8 code cache')
  })

  it('never runs a cache made from an earlier build, even one of the same length', async () => {
    const build = (id: string, value: string) => built(id, `exports.run = async () => { console.log(${JSON.stringify(value)}); process.exit() }`)
    await writeFile(bundle, build('aaaa', 'one'))
    expect(launch().stdout).toBe('one\n')
    // V8 would take the old cache for this source: it checks only the length.
    await writeFile(bundle, build('bbbb', 'two'))
    expect(launch().stdout).toBe('two\n')
    expect((await readdir(folder)).filter((name) => name.endsWith('.code-cache')).sort()).toEqual(['bundle.cjs.aaaa.code-cache', 'bundle.cjs.bbbb.code-cache'])
  })

  it("reads mk's own bundle as built: inside the module wrapper, its build line naming the text that follows", async () => {
    const source = await readFile(new URL('../../dist/bundle/mk.cjs', import.meta.url), 'latin1')
    const [buildLine = '', rest = ''] = source.split(/\n(.*)/s)
    expect(rest.startsWith('(function (exports, require, module, __filename, __dirname) { ')).toBe(true)
    expect(rest.endsWith('\n});')).toBe(true)
    expect(buildLine).toBe(`//mk-build:${createHash('sha256').update(rest).digest('hex').slice(0, 16)}`)
  })

  it("ships mk's shared code cache from a check, not from a step that only loaded the bundle", async () => {
    const built = fileURLToPath(new URL('../../dist/bundle/mk.cjs', import.meta.url))
    const source = await readFile(built, 'latin1')
    const shipped = await stat(codeCacheFileFor(built, source, ['knowledge', 'check']))
    // What loading alone compiles, as the oclif manifest's writer did before the build's warm-up removed its cache.
    await copyFile(built, bundle)
    const loadOnly = `import { loadBundle } from ${JSON.stringify(loader)}; loadBundle(${JSON.stringify(bundle)})`
    expect(spawnSync(process.execPath, ['--input-type=module', '-e', loadOnly], { env: plainEnv }).status).toBe(0)
    const loaded = await stat(codeCacheFileFor(bundle, source, []))
    // A check compiles far more than loading (1.9 against 1.1 MB of bytecode); the manifest writer's cache was 1.4 MB.
    expect(shipped.size).toBeGreaterThan(loaded.size * 1.5)
  })
})
