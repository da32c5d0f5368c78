import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packagedManifest } from './llm-tooling-files.js'
import { referencePages, type OclifManifest } from './reference-pages.js'

/*
 * Regenerate docs/reference/ (commands, tools, errors, configuration) from what the code knows.
 * With --check, write nothing and exit 1 when a committed page differs.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const directory = join(root, 'docs', 'reference')
const check = process.argv.includes('--check')
const pages = referencePages({
  tools: await packagedManifest(join(root, 'llm-tooling')),
  commands: JSON.parse(await readFile(join(root, 'oclif.manifest.json'), 'utf8')) as OclifManifest,
  mkrcExample: await readFile(join(root, '.mkrc.example'), 'utf8'),
})
const stale: string[] = []
await mkdir(directory, { recursive: true })
for (const [name, text] of Object.entries(pages)) {
  const path = join(directory, name)
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) continue
  if (check) stale.push(name)
  else await writeFile(path, text)
}
if (stale.length > 0) {
  process.stderr.write(`docs/reference/ is stale: ${stale.join(', ')} differ from the code; run npm run docs:reference and commit the result\n`)
  process.exitCode = 1
} else process.stderr.write(check ? 'docs/reference/ is up to date\n' : `docs/reference/: ${Object.keys(pages).length} pages written\n`)
