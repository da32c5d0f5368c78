#!/usr/bin/env node
// npm runs this after installing mk's dependencies (`postinstall`). In a clone of the repository
// it builds mk; in an installed package (no TypeScript sources) there is nothing to do. It is not
// a `prepare` script because npm runs `prepare` on `npm pack` too and prints its banner on
// stdout, where the pre-commit framework reads the name of the packed file. The build's own
// output goes to stderr for the same reason.
//
// A build newer than every source is kept: `npm link` runs this too, and rebuilding an
// up-to-date clone on every link cost a build for nothing.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
/** What the build reads, and the files its last steps write. */
const inputs = ['src', 'commands', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']
const outputs = ['dist/bundle/mk.cjs', 'dist/library/index.js', 'oclif.manifest.json']

/** The newest modification time under a path (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0
  const info = statSync(path)
  if (!info.isDirectory()) return info.mtimeMs
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs)
}

function buildIsCurrent() {
  const built = outputs.map((output) => join(root, output))
  if (!built.every((output) => existsSync(output))) return false
  const oldestOutput = Math.min(...built.map((output) => statSync(output).mtimeMs))
  return inputs.every((input) => newest(join(root, input)) < oldestOutput)
}

if (existsSync(new URL('../tsconfig.build.json', import.meta.url))) {
  if (buildIsCurrent()) {
    process.stderr.write('mk is already built from these sources; `npm run build` rebuilds it\n')
    process.exit(0)
  }
  const npm = process.env.npm_execpath
  const [command, args] = npm === undefined ? ['npm', ['run', 'build']] : [process.execPath, [npm, 'run', 'build']]
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2], shell: npm === undefined && process.platform === 'win32' })
  process.exit(result.status ?? 1)
}
