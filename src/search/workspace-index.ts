import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { KnowledgeProblem } from '../knowledge/model.js'
import { MkError } from '../errors.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import { visibleFolders } from '../memory/locations.js'
import { loadEmbedder } from './embedder.js'
import type { EmbeddingProvider } from './embedding/provider.js'
import { refreshKnowledge, refreshMemoryFolder, type RefreshOptions } from './refresh.js'
import { openIndex, type SearchIndex } from './search-index.js'

export function indexPathOf(workspace: Workspace): string {
  return join(workspace.stateDir, 'index.db')
}

/**
 * The workspace's index with the configured embedder (which loads its model only when it first embeds).
 * A broken embedding setup (a missing model folder) must not stop memories being written or found:
 * it is a warning, and the index works on full text until the setup is fixed.
 */
export async function openWorkspaceIndex(workspace: Workspace, warn: (message: string) => void): Promise<SearchIndex> {
  let embedder: EmbeddingProvider | undefined
  try {
    embedder = await loadEmbedder(workspace)
  } catch (error) {
    if (!(error instanceof MkError)) throw error
    warn(`${error.message}; searching full text only until the embedding model is fixed`)
  }
  return openIndex(indexPathOf(workspace), { embedder })
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
  knowledgeProblems: KnowledgeProblem[]
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

/**
 * A search embeds the documents still waiting for a vector, but only a few: embedding runs at
 * tens of texts a second, and one search must stay quick. The rest are found by full text
 * until `mk index update` (or later searches) embed them.
 */
export const maxEmbeddedPerSearch = 64

export async function embedSomePending(index: SearchIndex, warn: (message: string) => void): Promise<void> {
  if (!index.canSearchVectors) return
  const pending = index.pendingCount()
  if (pending === 0) return
  if (pending > maxEmbeddedPerSearch) {
    warn(`${pending} documents have no embedding yet and are found by full text only; run mk index update to embed them`)
    return
  }
  await index.embedPending()
}
