import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import { visibleFolders } from '../memory/locations.js'
import { loadEmbedder } from './embedder.js'
import { refreshKnowledge, refreshMemoryFolder, type RefreshOptions } from './refresh.js'
import { openIndex, type SearchIndex } from './search-index.js'

export function indexPathOf(workspace: Workspace): string {
  return join(workspace.stateDir, 'index.db')
}

/** The workspace's index with the configured embedder (which loads its model only when it first embeds). */
export async function openWorkspaceIndex(workspace: Workspace): Promise<SearchIndex> {
  return openIndex(indexPathOf(workspace), { embedder: await loadEmbedder(workspace) })
}

export interface FreshnessOptions extends RefreshOptions {
  identity: MemoryIdentity
  memory?: boolean
  knowledge?: boolean
  /** Only these memory folders (default: every visible one). */
  folders?: readonly MemoryFolder[]
}

export interface FreshnessReport {
  memoriesRead: number
  documentsRemoved: number
  knowledgeReloaded: boolean
  knowledgeProblems: string[]
}

/**
 * Make the index reflect the files before a search: new or deleted memories in every visible
 * folder, and knowledge files changed since the last search. Unchanged folders cost one stat each.
 */
export async function ensureFresh(index: SearchIndex, workspace: Workspace, options: FreshnessOptions): Promise<FreshnessReport> {
  const report: FreshnessReport = { memoriesRead: 0, documentsRemoved: 0, knowledgeReloaded: false, knowledgeProblems: [] }
  if (options.memory !== false) {
    for (const folder of options.folders ?? visibleFolders(workspace, options.identity)) {
      const result = await refreshMemoryFolder(index, workspace, folder, options)
      report.memoriesRead += result.added
      report.documentsRemoved += result.removed
    }
  }
  if (options.knowledge !== false) {
    const result = await refreshKnowledge(index, workspace, options)
    report.knowledgeReloaded = result.knowledgeReloaded
    report.documentsRemoved += result.removed
    report.knowledgeProblems = result.problems
  }
  index.setState('refreshed_at', new Date().toISOString())
  return report
}
