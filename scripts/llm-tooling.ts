import { readFile, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { llmToolingFiles } from './llm-tooling-files.js'
import { currentManifest } from '../src/tools/catalog/registered.js'

/*
 * Regenerate llm-tooling/ (manifest, SKILL.md, function schemas, OpenAPI) from the tool registry.
 * With --check, write nothing and exit 1 when a committed file differs from what the registry gives.
 */
const directory = fileURLToPath(new URL('../../llm-tooling/', import.meta.url))
const check = process.argv.includes('--check')
const files = llmToolingFiles(await currentManifest())
const stale: string[] = []
await mkdir(directory, { recursive: true })
for (const [name, text] of Object.entries(files)) {
  const path = join(directory, name)
  const committed = await readFile(path, 'utf8').catch(() => undefined)
  if (committed === text) continue
  if (check) stale.push(name)
  else await writeFile(path, text)
}
if (stale.length > 0) {
  process.stderr.write(`llm-tooling/ is stale: ${stale.join(', ')} differ from the tool registry; run npm run llm-tooling and commit the result\n`)
  process.exitCode = 1
} else {
  process.stderr.write(check ? 'llm-tooling/ is up to date\n' : `llm-tooling/: ${Object.keys(files).length} files written\n`)
}
