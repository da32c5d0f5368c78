#!/usr/bin/env node
// npm runs this after installing mk's dependencies (`postinstall`). In a clone of the repository
// it builds mk; in an installed package (no TypeScript sources) there is nothing to do. It is not
// a `prepare` script because npm runs `prepare` on `npm pack` too and prints its banner on
// stdout, where the pre-commit framework reads the name of the packed file. The build's own
// output goes to stderr for the same reason.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
if (existsSync(new URL('../tsconfig.build.json', import.meta.url))) {
  const npm = process.env.npm_execpath
  const [command, args] = npm === undefined ? ['npm', ['run', 'build']] : [process.execPath, [npm, 'run', 'build']]
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2], shell: npm === undefined && process.platform === 'win32' })
  process.exit(result.status ?? 1)
}
