import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic, writeFileExclusive } from '../fs/atomic-write.js'
import { isNodeError } from '../errors.js'
import { starterAdr, starterConfig, starterPolicy } from './starter.js'

const starterAdrPath = 'knowledge/adr/adr-0001-use-postgresql.md'

/** Where teams keep decision records already (adr-tools, MADR, log4brains): read where they are, unchanged. */
const decisionFolderCandidates = ['doc/adr', 'docs/adr', 'docs/adrs', 'docs/decisions', 'doc/decisions', 'docs/architecture/decisions', 'adr', 'decisions']

async function decisionFolders(root: string): Promise<string[]> {
  const found: string[] = []
  for (const folder of decisionFolderCandidates) {
    const entries = await readdir(join(root, folder)).catch(() => [])
    if (entries.some((name) => name.endsWith('.md') && !/^(readme|index|template)/i.test(name))) found.push(folder)
  }
  return found
}

/** The starter .mkrc: the project's knowledge/ folder, and each decision folder the repository already has. */
function configReading(folders: readonly string[]): string {
  const names = folders.map((folder) => folder.replaceAll('/', '-'))
  return `${starterConfig}${folders.map((folder, n) => `    - name: ${names[n]}\n      layer: project\n      path: ${folder}\n`).join('')}`
}

async function ensureIgnored(root: string, entry: string): Promise<boolean> {
  const path = join(root, '.gitignore')
  const current = existsSync(path) ? await readFile(path, 'utf8') : ''
  if (current.split('\n').some((line) => line.trim() === entry || line.trim() === entry.replace(/\/$/, ''))) return false
  await writeFileAtomic(path, `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${entry}\n`)
  return true
}

/**
 * Write the starter files that do not exist yet; never touch one that does. A repository that
 * keeps decision records already gets them as a knowledge source instead of the example ADR.
 */
export async function initWorkspace(root: string): Promise<{ created: string[]; unchanged: string[]; decisionFolders: string[] }> {
  const created: string[] = []
  const unchanged: string[] = []
  const hasConfig = ['.mkrc', '.mkrc.yaml', '.mkrc.yml', '.mkrc.json'].some((name) => existsSync(join(root, name)))
  const folders = hasConfig ? [] : await decisionFolders(root)
  const starterFiles: [string, string][] = [
    ['.mkrc', configReading(folders)],
    ...(folders.length === 0 ? [[starterAdrPath, starterAdr] as [string, string]] : []),
    ['knowledge/policies/policy-no-eval.md', starterPolicy],
  ]
  for (const [path, content] of starterFiles) {
    if (path === '.mkrc' && hasConfig) {
      unchanged.push(path)
      continue
    }
    try {
      await writeFileExclusive(join(root, path), content)
      created.push(path)
    } catch (error) {
      if (!isNodeError(error) || error.code !== 'EEXIST') throw error
      unchanged.push(path)
    }
  }
  if (await ensureIgnored(root, '.mk/')) created.push('.gitignore')
  else unchanged.push('.gitignore')
  return { created, unchanged, decisionFolders: folders }
}
