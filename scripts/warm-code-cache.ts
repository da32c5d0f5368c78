import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Write the bundle's V8 code cache at build time (src/hosts/cli/load-bundle.ts), from
 * a run of `mk knowledge check` on this repository: it then holds the start-up
 * path every command shares and the whole check, not whatever command a user
 * happens to run first.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const folder = `${root}dist/bundle`
const run = spawnSync(process.execPath, ['bin/run.js', 'knowledge', 'check'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
// 0 or 1 (violations found) ran the whole check; 2 stopped early, and the cache would miss most of it.
if ((run.status !== 0 && run.status !== 1) || !readdirSync(folder).some((name) => name.endsWith('.code-cache'))) {
  process.stderr.write(`warm-code-cache: mk knowledge check exited ${run.status} without writing a code cache in ${folder}\n${run.stderr}`)
  process.exitCode = 1
}
