import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Write the bundle's V8 code cache at build time (src/cli/load-bundle.ts), from
 * a run of `mk knowledge check` on this repository: it then holds the start-up
 * path every command shares and the whole check, not whatever command a user
 * happens to run first.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const cache = `${root}dist/bundle/mk.cjs.code-cache`
const run = spawnSync(process.execPath, ['bin/run.js', 'knowledge', 'check'], { cwd: root, stdio: 'ignore' })
if (!existsSync(cache)) {
  process.stderr.write(`warm-code-cache: mk knowledge check exited ${run.status} and wrote no ${cache}\n`)
  process.exitCode = 1
}
