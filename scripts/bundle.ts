import { dirname, join } from 'node:path'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire, isBuiltin } from 'node:module'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

import { walkFiles } from '../src/fs/walk.js'
import { tokenizerFile } from '../src/token-count.js'

/**
 * Bundle the compiled commands and the pure-JavaScript dependencies on their
 * paths into one CommonJS file, which bin/run.js loads with a V8 code cache
 * (src/hosts/cli/load-bundle.ts; ADR 0001). zod alone is 232 ESM modules: resolving
 * and reading them dominated start-up before there was a bundle. Packages with
 * native parts, their own files, or top-level await (ink) are not bundled
 * (scripts/bundled-packages.json lists those that are); the bundle imports them
 * at run time through src/import-package.ts.
 */
const bundled = new Set(JSON.parse(await readFile(new URL('../../scripts/bundled-packages.json', import.meta.url), 'utf8')) as string[])
/** What oclif loads only to run TypeScript sources in development: never on a built mk's path. */
const developmentOnly = ['typescript', 'ts-node', 'tsx']

/**
 * `z.locales` holds zod's error messages in 40 languages, half of zod's bytes,
 * parsed at every start; mk uses only English (which zod configures by default).
 */
const englishOnlyZod: Plugin = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[/\\]zod[/\\]v4[/\\](classic|core)[/\\]/.test(args.importer) ? { path: args.importer, namespace: 'zod-locales' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js'",
      resolveDir: dirname(args.path),
    }))
  },
}

/**
 * gray-matter's js-yaml 3 requires esprima when it loads, for the `!!js/function`
 * tag that gray-matter's safe schema never resolves: a whole JavaScript parser
 * loaded at every start for nothing. Without it the tag is simply never resolved.
 */
const noEsprima: Plugin = {
  name: 'no-esprima',
  setup(build) {
    build.onLoad({ filter: /[/\\]js-yaml[/\\]lib[/\\]js-yaml[/\\]type[/\\]js[/\\]function\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      if (!source.includes("_require('esprima')")) throw new Error(`${args.path} no longer requires esprima as expected: review the no-esprima bundle plugin`)
      return { contents: source.replace("_require('esprima')", 'undefined'), loader: 'js' }
    })
  },
}

/**
 * secretlint's core marks each step of a lint on a profiler that @secretlint/profiler creates when
 * loaded: a PerformanceObserver that keeps every mark and measure for the life of the process,
 * which nothing in mk reads. It cost every redaction (each `mk memory add`) 2-5 ms of marks,
 * measures and observer callbacks, and grew without end in `mk serve`. The core only calls
 * mark(): in the bundle that does nothing.
 */
const noSecretlintProfiler: Plugin = {
  name: 'no-secretlint-profiler',
  setup(build) {
    build.onLoad({ filter: /[/\\]@secretlint[/\\]profiler[/\\]module[/\\]node\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      if (!source.includes('export const secretLintProfiler = new SecretLintProfiler('))
        throw new Error(`${args.path} no longer creates the profiler as expected: review the no-secretlint-profiler bundle plugin`)
      return { contents: 'export const secretLintProfiler = { mark() {} }\n', loader: 'js' }
    })
  },
}

/**
 * better-sqlite3's JavaScript is bundled: its dozen files were resolved, read and compiled at
 * every command that opens the index, outside the code cache. Its native addon is not: the
 * bundle requires it from where the package's build (or prebuilt download) puts it, instead of
 * through `bindings`, which would look for it beside the bundle.
 */
const betterSqliteAddon: Plugin = {
  name: 'better-sqlite3-addon',
  setup(build) {
    build.onLoad({ filter: /[/\\]better-sqlite3[/\\]lib[/\\]database\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const throughBindings = "require('bindings')('better_sqlite3.node')"
      if (!source.includes(throughBindings))
        throw new Error(`${args.path} no longer loads its addon through bindings as expected: review the better-sqlite3-addon bundle plugin`)
      return { contents: source.replace(throughBindings, "require('better-sqlite3/build/Release/better_sqlite3.node')"), loader: 'js' }
    })
  },
}

/**
 * oclif sorts the commands of its manifest with localeCompare at every start: the first
 * comparison of a process sets up ICU's collator, 8-18 ms and 5 MB for one sort of 53 ids.
 * The ids are ASCII (checked below, where the bundle's entry is written), for which comparing
 * code units gives the same order.
 *
 * The same module requires tinyglobby (with fdir and picomatch) when it loads, for the `pattern`
 * command discovery mk does not use (package.json: `explicit`): 3-4 ms of every command. In the
 * bundle it is required the first time a glob runs.
 */
const codeUnitCommandOrder: Plugin = {
  name: 'code-unit-command-order',
  setup(build) {
    build.onLoad({ filter: /[/\\]@oclif[/\\]core[/\\]lib[/\\]config[/\\]plugin\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const byLocale = '.sort((a, b) => a.id.localeCompare(b.id))'
      if (!source.includes(byLocale)) throw new Error(`${args.path} no longer sorts commands as expected: review the code-unit-command-order bundle plugin`)
      const eagerGlob = 'const tinyglobby_1 = require("tinyglobby");'
      if (!source.includes(eagerGlob) || source.split('tinyglobby_1.').length !== 2)
        throw new Error(`${args.path} no longer requires tinyglobby as expected: review the code-unit-command-order bundle plugin`)
      return {
        contents: source
          .replace(byLocale, '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))')
          .replace(eagerGlob, 'const tinyglobby_1 = { get glob() { return require("tinyglobby").glob } };'),
        loader: 'js',
      }
    })
  },
}

/** An edit of one oclif file's text in the bundle; it throws when the file no longer reads as expected. */
type OclifEdit = (source: string, path: string) => string

/**
 * A node module oclif requires when its module loads but uses only on paths a short command never
 * takes, each about 1-3 ms of every command: in the bundle it is required when first used.
 */
function requiredWhenUsed(module: string, members: readonly string[]): OclifEdit {
  return (source, path) => {
    const name = `node_${module}_1`
    const eager = `const ${name} = require("node:${module}");`
    const uses = source.match(new RegExp(`${name}\\.\\w+`, 'g')) ?? []
    if (!source.includes(eager) || uses.some((use) => !members.includes(use.slice(name.length + 1))))
      throw new Error(`${path} no longer uses node:${module} as expected: review the oclif-edits bundle plugin`)
    const getters = members.map((member) => `get ${member}() { return require("node:${module}").${member} }`)
    return source.replace(eager, `const ${name} = { ${getters.join(', ')} };`)
  }
}

function replaced(text: string, by: string): OclifEdit {
  return (source, path) => {
    if (!source.includes(text)) throw new Error(`${path} no longer holds ${text}: review the oclif-edits bundle plugin`)
    return source.replace(text, by)
  }
}

/**
 * Edits of oclif's files, by path under @oclif/core/lib:
 * - node:perf_hooks is used only when performance tracking is on (OCLIF_PERF), node:readline only
 *   to read an argument given as `-` from stdin, node:child_process only to name the parent shell
 *   on Windows;
 * - the config asks wsl-utils whether it runs in WSL at every start, and wsl-utils requires
 *   node:child_process and powershell-utils when it loads (2.7 ms) for helpers oclif uses only on
 *   Windows: the answer is is-wsl's, which wsl-utils re-exports.
 */
const oclifEdits: Readonly<Record<string, readonly OclifEdit[]>> = {
  'performance.js': [requiredWhenUsed('perf_hooks', ['performance', 'PerformanceObserver'])],
  'parser/parse.js': [requiredWhenUsed('readline', ['createInterface'])],
  'util/os.js': [requiredWhenUsed('child_process', ['execSync']), replaced("(await import('wsl-utils')).isWsl", "(await import('is-wsl')).default")],
}

const oclifEditsPlugin: Plugin = {
  name: 'oclif-edits',
  setup(build) {
    for (const [file, edits] of Object.entries(oclifEdits)) {
      const path = `@oclif/core/lib/${file}`.split('/').map((part) => part.replaceAll('.', '\\.'))
      build.onLoad({ filter: new RegExp(`[/\\\\]${path.join('[/\\\\]')}$`) }, async (args) => {
        const source = await readFile(args.path, 'utf8')
        return { contents: edits.reduce((text, edit) => edit(text, args.path), source), loader: 'js' }
      })
    }
  },
}

/** Where bin/run.js and package.json (oclif.commands, oclif.hooks) expect the bundle. */
const bundleFile = 'dist/bundle/mk.cjs'

/**
 * The bundle's entry: the process entry, the library's, and oclif's command registry
 * (`explicit` command discovery) with a getter per command, so that a
 * command's modules are evaluated only when oclif asks for that command.
 */
function entrySource(commandFiles: readonly string[]): string {
  const ids = commandFiles.map((file) =>
    file
      .replace(/\.js$/, '')
      .replace(/(^|\/)index$/, '')
      .replaceAll('/', ':'),
  )
  const unusual = ids.filter((id) => !/^[a-z:-]*$/.test(id))
  if (unusual.length > 0) throw new Error(`command ids ${unusual.join(', ')} are not lowercase ASCII: review the code-unit-command-order bundle plugin`)
  const getters = ids.map((id, at) => `  get ${JSON.stringify(id)}() { return require('./commands/${commandFiles[at] as string}').default },`)
  return [
    '// Generated by scripts/bundle.ts.',
    "exports.run = require('./src/hosts/cli/main.js').run",
    "Object.defineProperty(exports, 'commandNotFound', { get: () => require('./src/hosts/cli/command-not-found.js').default })",
    // The library's entry (dist/library/index.js, ADR 0016): the same modules as the CLI's, loaded when asked for.
    "Object.defineProperty(exports, 'openMk', { get: () => require('./src/hosts/library/open.js').openMk })",
    "Object.defineProperty(exports, 'MkError', { get: () => require('./src/errors.js').MkError })",
    "Object.defineProperty(exports, 'errorCodes', { get: () => require('./src/errors.js').errorCodes })",
    'exports.commands = {',
    ...getters,
    '}',
    '',
  ].join('\n')
}

const root = new URL('../../', import.meta.url)
const { dependencies } = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { dependencies: Record<string, string> }
const external = [
  ...Object.keys(dependencies)
    .filter((name) => !bundled.has(name))
    .flatMap((name) => [name, `${name}/*`]),
  ...developmentOnly,
  // Native addons are loaded by Node from their package, never bundled.
  '*.node',
]

const dist = fileURLToPath(new URL('dist/', root))
const commands = walkFiles(`${dist}commands`).filter((file) => file.endsWith('.js'))
const outfile = fileURLToPath(new URL(bundleFile, root))
const built = `${outfile}.building`
// Emptied first: a code cache left beside an older bundle must never be read.
await rm(dirname(outfile), { recursive: true, force: true })
await mkdir(dirname(outfile), { recursive: true })
const entry = `${dist}bundle-entry.cjs`
await writeFile(entry, entrySource(commands))
const { metafile } = await build({
  entryPoints: [entry],
  outfile: built,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [englishOnlyZod, noEsprima, noSecretlintProfiler, betterSqliteAddon, codeUnitCommandOrder, oclifEditsPlugin],
  alias: { 'sha.js/sha1.js': `${dist}src/git/sha1.js` },
  // The sources are ES modules; in the bundle, import.meta.url is the bundle's own URL.
  define: { 'import.meta.url': '__mkBundleUrl' },
  banner: { js: "const __mkBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Whitespace and comments were a third of the bytes Node reads and decodes at every start; names stay, for stack traces.
  minifyWhitespace: true,
  metafile: true,
  logLevel: 'warning',
})

/** Whether Node loads the file as an ES module: `.mjs`, or `.js` in a package whose type is module. */
function isEsModule(file: string): boolean {
  if (file.endsWith('.mjs')) return true
  if (file.endsWith('.cjs')) return false
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { type?: string }).type === 'module'
  }
  return false
}

/**
 * What the bundle require()s at run time must be CommonJS: Node 20 before
 * 20.19 cannot require an ES module, and none can when it uses top-level await
 * (ink). Such packages are imported with importPackage() (src/import-package.ts).
 */
const requireFrom = createRequire(fileURLToPath(new URL('package.json', root)))
const required = Object.values(metafile.outputs).flatMap((output) =>
  output.imports.filter(
    (imported) => imported.external && imported.kind !== 'dynamic-import' && !isBuiltin(imported.path) && !developmentOnly.includes(imported.path),
  ),
)
const esModules = [...new Set(required.map((imported) => imported.path))].filter((specifier) => isEsModule(requireFrom.resolve(specifier)))
if (esModules.length > 0)
  throw new Error(`the bundle would require() ES modules: ${esModules.join(', ')}; import them with importPackage() from src/import-package.ts`)

/**
 * esbuild escapes non-ASCII text except inside regular expression literals. One
 * such character makes V8 hold the whole 2.6 MB source as two-byte text, which
 * took 20 ms to read at every start; `\uXXXX` means the same in strings,
 * regular expressions and identifiers.
 */
const ascii = (await readFile(built, 'utf8')).replace(/[^\0-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
/**
 * The bundle is written inside Node's CommonJS module wrapper, so src/hosts/cli/load-bundle.ts compiles the
 * file's text as it was read: wrapping it there made V8 keep a second, joined copy of the 3.6 MB source,
 * 3.5 MB of every command's peak memory. Its code starts on line 2, as it did under Module.wrap.
 */
const wrapped = `(function (exports, require, module, __filename, __dirname) { ${ascii}\n});`
// The first line names the build: src/hosts/cli/load-bundle.ts keys the code cache by it. Renamed into place, so a starting mk never reads half a bundle.
await writeFile(built, `//mk-build:${createHash('sha256').update(wrapped).digest('hex').slice(0, 16)}\n${wrapped}`)
await rename(built, outfile)
await rm(entry)

/**
 * The launcher's loader (src/hosts/cli/load-bundle.ts) as CommonJS for bin/run.js, which is CommonJS
 * itself: an ES module entry starts Node's ES module loader, 7 ms of every command. The library
 * (dist/library) is an ES module and imports the tsc output of the same source.
 */
await build({
  entryPoints: [`${dist}src/hosts/cli/load-bundle.js`],
  outfile: join(dirname(outfile), 'load-bundle.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
})

/**
 * The fast paths bin/run.js runs before the bundle: `mk hook claude|cursor` (src/hosts/cli/hook-fast-path.ts)
 * and `mk memory search` (search-fast-path.ts), answered by the workspace's local server when one runs.
 * A few Node built-ins and mk's own small modules, so asking the local server costs little more than
 * starting Node. A package in one would undo that.
 */
for (const fastPath of ['hook-fast-path', 'search-fast-path']) {
  const fastBuild = await build({
    entryPoints: [`${dist}src/hosts/cli/${fastPath}.js`],
    outfile: join(dirname(outfile), `${fastPath}.cjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    metafile: true,
    logLevel: 'warning',
  })
  const packages = Object.keys(fastBuild.metafile.inputs).filter((input) => input.includes('node_modules'))
  if (packages.length > 0) throw new Error(`the fast path ${fastPath} would carry packages: ${packages.join(', ')}`)
}

/**
 * The one tokenizer encoding mk counts with (o200k, src/token-count.ts), as one ES module of about
 * 2.5 MB: the gpt-tokenizer package ships every OpenAI encoding three times over (30 MB installed),
 * so it is a development dependency and an installed mk carries only this file.
 */
await build({
  entryPoints: ['gpt-tokenizer/encoding/o200k_base'],
  outfile: join(dirname(outfile), tokenizerFile),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
})
