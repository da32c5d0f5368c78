import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isNodeError, MkError } from '../errors.js'
import { inspectModelFolder } from '../search/embedding/model-folder.js'

async function entries(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name)
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return []
    throw error
  }
}

async function bytesIn(folder: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    total += entry.isDirectory() ? await bytesIn(path) : (await stat(path)).size
  }
  return total
}

/** The complete models under `$MK_HOME/models/<owner>/<name>`; a folder that is not one (a pull that never finished is in .partial/) is left out. */
export async function installedModels(mkHome: string): Promise<{ id: string; folder: string; bytes: number; dimensions: number }[]> {
  const root = join(mkHome, 'models')
  const models: { id: string; folder: string; bytes: number; dimensions: number }[] = []
  for (const owner of await entries(root)) {
    for (const name of await entries(join(root, owner))) {
      const folder = join(root, owner, name)
      try {
        const { dimensions } = inspectModelFolder(folder)
        models.push({ id: `${owner}/${name}`, folder, bytes: await bytesIn(folder), dimensions })
      } catch (error) {
        if (!(error instanceof MkError)) throw error
      }
    }
  }
  return models.sort((a, b) => a.id.localeCompare(b.id))
}
