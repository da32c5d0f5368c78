import { readFile } from 'node:fs/promises'
import { build } from 'esbuild'
import { walkFiles } from '../src/fs/walk.js'

/**
 * Bundle the compiled commands so a command loads a few files instead of hundreds:
 * zod alone is 232 ESM modules, and resolving and reading them dominated start-up.
 * Only pure-JavaScript dependencies on the hot paths are bundled; everything with
 * native parts, its own files, or a heavy lazy runtime stays an ordinary import.
 */
const bundled = new Set(['zod', 'gray-matter', 'js-yaml', 'chalk', 're2js', 'minimatch', 'ignore', 'ulid', 'isomorphic-git'])

const root = new URL('../../', import.meta.url)
const { dependencies } = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { dependencies: Record<string, string> }
const external = Object.keys(dependencies)
  .filter((name) => !bundled.has(name))
  .flatMap((name) => [name, `${name}/*`])

const dist = new URL('dist/', root).pathname
const commands = await walkFiles(`${dist}commands`)
await build({
  entryPoints: [...commands.filter((file) => file.endsWith('.js')).map((file) => `${dist}commands/${file}`), `${dist}src/cli/command-not-found.js`],
  outdir: `${dist}bundle`,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  alias: { 'sha.js/sha1.js': `${dist}src/git/sha1.js` },
  // Bundled CommonJS (gray-matter) calls require(); ESM output has none unless we make one.
  banner: { js: "import { createRequire as __mkCreateRequire } from 'node:module'; const require = __mkCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})
