import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

const packageJsonSchema = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  engines: z.object({ node: z.string() }),
  bin: z.record(z.string(), z.string()),
})

export type PackageInfo = z.output<typeof packageJsonSchema>

/** mk's own package.json, found from this file both in src/ (tests) and in dist/ (the built CLI). */
export async function readPackageInfo(): Promise<PackageInfo> {
  let directory = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory)
    if (parent === directory) throw new Error('package.json of mk not found above the installed files')
    directory = parent
  }
  return packageJsonSchema.parse(JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')))
}
