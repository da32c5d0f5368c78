import { dirname } from 'node:path'
import { readFile, rm } from 'node:fs/promises'
import { build, type Plugin } from 'esbuild'

import { walkFiles } from '../src/fs/walk.js'

/**
 * Bundle the compiled commands so a command loads a few files instead of hundreds:
 * zod alone is 232 ESM modules, and resolving and reading them dominated start-up.
 * Only pure-JavaScript dependencies on the hot paths are bundled; everything with
 * native parts, its own files, or a heavy lazy runtime stays an ordinary import.
 */
const bundled = new Set(['@oclif/core', '@secretlint/core', '@secretlint/secretlint-rule-preset-recommend', 'zod', 'gray-matter', 'js-yaml', 'chalk', 're2js', 'minimatch', 'ignore', 'ulid', 'isomorphic-git'])
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

const root = new URL('../../', import.meta.url)
const { dependencies } = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { dependencies: Record<string, string> }
const external = [
  ...Object.keys(dependencies)
    .filter((name) => !bundled.has(name))
    .flatMap((name) => [name, `${name}/*`]),
  ...developmentOnly,
]

const dist = new URL('dist/', root).pathname
const commands = await walkFiles(`${dist}commands`)
// Chunk names are content hashes: without this, every build would leave the previous chunks behind.
await rm(`${dist}bundle`, { recursive: true, force: true })
await build({
  entryPoints: [...commands.filter((file) => file.endsWith('.js')).map((file) => `${dist}commands/${file}`), `${dist}src/cli/main.js`, `${dist}src/cli/command-not-found.js`],
  outdir: `${dist}bundle`,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [englishOnlyZod, noEsprima],
  alias: { 'sha.js/sha1.js': `${dist}src/git/sha1.js` },
  // Bundled CommonJS (gray-matter) calls require(); ESM output has none unless we make one.
  banner: { js: "import { createRequire as __mkCreateRequire } from 'node:module'; const require = __mkCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})
