import { join, resolve } from 'node:path'
import type { Workspace } from '../../config/workspace.js'
import { writeFileAtomic } from '../../fs/atomic-write.js'
import { withLock } from '../../fs/lock.js'
import { requireInsideWorkspace, requireResolvesWithin } from '../../fs/path-guard.js'
import { generatedMarker, type ExportedFile } from './render.js'
import { readTextIfExists } from '../../fs/read-if-exists.js'

export interface WrittenFile {
  /** Workspace-relative posix path. */
  path: string
  /** `skipped`: the file is there and mk did not write it (a hand-written AGENTS.md), and replace is off. */
  action: 'written' | 'unchanged' | 'skipped'
}

function actionFor(existing: string | undefined, content: string, replace: boolean): WrittenFile['action'] {
  if (existing === content) return 'unchanged'
  if (existing !== undefined && !existing.includes(generatedMarker) && !replace) return 'skipped'
  return 'written'
}

/**
 * Write the exported files under `out` (relative to the workspace root), each through the path
 * guard and atomically. A file that already holds the same bytes is not touched, and one that
 * mk did not generate is replaced only when `replace` says so.
 */
export async function writeExportedFiles(workspace: Workspace, out: string, files: readonly ExportedFile[], replace: boolean): Promise<WrittenFile[]> {
  const root = workspace.root
  const folder = resolve(root, out) === resolve(root) ? '' : requireInsideWorkspace(root, out, 'out')
  const written: WrittenFile[] = []
  await withLock(join(workspace.stateDir, 'locks', 'rules-export'), { what: 'the exported agent rules files', onBusy: 'wait' }, async () => {
    for (const file of files) {
      const path = folder === '' ? file.path : `${folder}/${file.path}`
      const absolutePath = join(root, path)
      requireResolvesWithin([{ path: root, name: 'the workspace' }], absolutePath, 'out')
      const action = actionFor(await readTextIfExists(absolutePath), file.content, replace)
      if (action === 'written') await writeFileAtomic(absolutePath, file.content)
      written.push({ path, action })
    }
  })
  return written
}
