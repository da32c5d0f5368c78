import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic, writeFileExclusive } from '../fs/atomic-write.js'
import { isNodeError } from '../errors.js'
import { starterAdr, starterConfig, starterPolicy } from './starter.js'

const starterFiles: readonly [string, string][] = [
  ['.mkrc', starterConfig],
  ['knowledge/adr/adr-0001-use-postgresql.md', starterAdr],
  ['knowledge/policies/policy-no-eval.md', starterPolicy],
]

async function ensureIgnored(root: string, entry: string): Promise<boolean> {
  const path = join(root, '.gitignore')
  const current = existsSync(path) ? await readFile(path, 'utf8') : ''
  if (current.split('\n').some((line) => line.trim() === entry || line.trim() === entry.replace(/\/$/, ''))) return false
  await writeFileAtomic(path, `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${entry}\n`)
  return true
}

/** Write the starter files that do not exist yet; never touch one that does. */
export async function initWorkspace(root: string): Promise<{ created: string[]; unchanged: string[] }> {
  const created: string[] = []
  const unchanged: string[] = []
  const hasConfig = ['.mkrc', '.mkrc.yaml', '.mkrc.yml', '.mkrc.json'].some((name) => existsSync(join(root, name)))
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
  return { created, unchanged }
}
