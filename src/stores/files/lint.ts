import { join } from 'node:path'
import type { Workspace } from '../../config/workspace.js'
import type { KnowledgeProblem } from '../../knowledge/model.js'
import { visibleFolders } from '../../memory/locations.js'
import { readTextIfExists } from '../../fs/read-if-exists.js'
import { displayPath, isStored, listMemoryFiles, readMemoryFile } from '../../memory/store.js'
import { tierTableFile, tierTableProblems } from '../../memory/tier-table.js'

/**
 * The memory files of the shared layers (those in the repository and its sources) that cannot be
 * served: malformed, or private with no owner; and tier-table lines that do not parse. Private layers live in MK_HOME, outside what lint reviews.
 */
export async function lintSharedMemories(workspace: Workspace): Promise<{ problems: KnowledgeProblem[]; filesRead: number }> {
  const problems: KnowledgeProblem[] = []
  let filesRead = 0
  for (const folder of visibleFolders(workspace, { agentId: undefined, sessionId: undefined }).filter((candidate) => !candidate.private)) {
    for (const name of listMemoryFiles(folder)) {
      filesRead++
      const read = await readMemoryFile(workspace, folder, join(folder.dir, name))
      if (!isStored(read)) problems.push({ file: read.file, line: 1, code: read.code, message: read.problem, severity: 'error' })
    }
    const table = await readTextIfExists(tierTableFile(folder))
    for (const problem of tierTableProblems(table ?? '')) {
      problems.push({
        file: displayPath(workspace, tierTableFile(folder)),
        line: problem.line,
        code: 'invalid-tier-line',
        message: problem.message,
        severity: 'error',
      })
    }
  }
  return { problems, filesRead }
}
