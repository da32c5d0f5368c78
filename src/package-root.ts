import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** mk's name on npm (the command is `mk`). */
export const packageName = 'mk-knowledge'

let cached: string | undefined

/**
 * The folder of mk's own package.json. Found by walking up from this module,
 * because the module may run from dist/src (tsc output) or from a bundle chunk.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached
  let directory = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(directory, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === packageName) return (cached = directory)
    const parent = dirname(directory)
    if (parent === directory) throw new Error('cannot find the mk package folder')
    directory = parent
  }
}
