import { readFile, writeFile, mkdir, readdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { llmToolingFiles, packagedManifest } from './llm-tooling-files.js'

/*
 * Regenerate llm-tooling/ (manifest, SKILL.md, function schemas, schemas/<tool>.schema.json, OpenAPI)
 * from the tool registry and the override files in llm-tooling/overrides/.
 * With --check, write nothing and exit 1 when a committed file differs from what they give.
 */
const directory = fileURLToPath(new URL('../../llm-tooling/', import.meta.url))
const check = process.argv.includes('--check')
const files = llmToolingFiles(await packagedManifest(directory))
const stale: string[] = []
for (const [name, text] of Object.entries(files)) {
  const path = join(directory, name)
  const committed = await readFile(path, 'utf8').catch(() => undefined)
  if (committed === text) continue
  if (check) stale.push(name)
  else {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, text)
  }
}
// A schema file of a tool that no longer exists is stale too.
for (const name of await readdir(join(directory, 'schemas')).catch(() => [] as string[])) {
  if (`schemas/${name}` in files) continue
  if (check) stale.push(`schemas/${name}`)
  else await rm(join(directory, 'schemas', name))
}
if (stale.length > 0) {
  process.stderr.write(`llm-tooling/ is stale: ${stale.join(', ')} differ from the tool registry; run npm run llm-tooling and commit the result\n`)
  process.exitCode = 1
} else {
  process.stderr.write(check ? 'llm-tooling/ is up to date\n' : `llm-tooling/: ${Object.keys(files).length} files written\n`)
}
