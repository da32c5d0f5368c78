import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { KnowledgeProblem } from '../knowledge/model.js'
import { visibleFolders } from './locations.js'
import { isStored, listMemoryFiles, readMemoryFile } from './store.js'

/**
 * The memory files of the shared layers (those in the repository and its sources) that cannot be
 * served: malformed, or private with no owner. Private layers live in MK_HOME, outside what lint reviews.
 */
export async function lintSharedMemories(workspace: Workspace): Promise<{ problems: KnowledgeProblem[]; filesRead: number }> {
  const problems: KnowledgeProblem[] = []
  let filesRead = 0
  for (const folder of visibleFolders(workspace, { agentId: undefined, sessionId: undefined }).filter((candidate) => !candidate.private)) {
    for (const name of await listMemoryFiles(folder)) {
      filesRead++
      const read = await readMemoryFile(workspace, folder, join(folder.dir, name))
      if (!isStored(read)) problems.push({ file: read.file, line: 1, code: read.code, message: read.problem, severity: 'error' })
    }
  }
  return { problems, filesRead }
}
