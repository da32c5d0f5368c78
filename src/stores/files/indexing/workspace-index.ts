import type { Workspace } from '../../../config/workspace.js'
import { MkError } from '../../../errors.js'
import { visibleFolders } from '../../../memory/locations.js'
import { loadEmbedder } from '../../../search/embedder.js'
import type { EmbeddingProvider } from '../../../search/embedding/provider.js'
import { indexPathOf } from './index-path.js'
import type { EmbedOptions, FreshnessOptions, FreshnessReport, SearchReadiness } from '../../index-store.js'
import { refreshKnowledge, refreshMemoryFolder } from './refresh.js'
import { openIndex, type SearchIndex } from '../../../search/search-index.js'

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

/**
 * Make the index reflect the files before a search: new or deleted memories in every visible
 * folder, and knowledge files changed since the last search. Unchanged folders cost one stat each.
 */
export async function ensureFresh(index: SearchIndex, workspace: Workspace, options: FreshnessOptions): Promise<FreshnessReport> {
  const report: FreshnessReport = { memoriesRead: 0, foldersListed: 0, documentsRemoved: 0, knowledgeReloaded: false, knowledgeProblems: [] }
  if (options.memory !== false) {
    for (const folder of options.folders ?? visibleFolders(workspace, options.identity)) {
      const result = await refreshMemoryFolder(index, workspace, folder, options)
      report.memoriesRead += result.added
      report.foldersListed += result.foldersListed
      report.documentsRemoved += result.removed
    }
  }
  if (options.knowledge !== false) {
    const result = await refreshKnowledge(index, workspace, options)
    report.knowledgeReloaded = result.knowledgeReloaded
    report.documentsRemoved += result.removed
    report.knowledgeProblems = result.problems
  }
  markRefreshed(index, report)
  return report
}

/** A look that changed nothing is recorded at most once a minute: a write per search cost every search a transaction. */
const refreshedAtResolutionMs = 60_000

function markRefreshed(index: SearchIndex, report: FreshnessReport): void {
  const changed = report.memoriesRead > 0 || report.documentsRemoved > 0 || report.knowledgeReloaded
  const last = Date.parse(index.state('refreshed_at') ?? '')
  const now = Date.now()
  if (changed || !(now - last < refreshedAtResolutionMs)) index.setState('refreshed_at', new Date(now).toISOString())
}

/**
 * Embed every document still waiting for a vector before a search, in committed batches with
 * progress, so that no memory is searched by full text alone after a bulk add, a fresh clone or
 * a pull. A model that fails leaves the search on full text, with a warning, and says so.
 */
export async function embedBeforeSearch(index: SearchIndex, options: EmbedOptions): Promise<SearchReadiness> {
  if (!index.canSearchVectors) return { searchMode: 'fulltext', pendingEmbeddings: 0 }
  if (index.pendingCount() === 0) return { searchMode: 'hybrid', pendingEmbeddings: 0 }
  try {
    await index.embedPending(options.progress, options.signal)
    return { searchMode: 'hybrid', pendingEmbeddings: index.pendingCount() }
  } catch (error) {
    if (!(error instanceof MkError) || options.signal?.aborted === true) throw error
    const pendingEmbeddings = index.pendingCount()
    options.warn(`${error.message}; searching full text only, ${pendingEmbeddings} documents are still waiting for an embedding`)
    return { searchMode: 'fulltext', pendingEmbeddings }
  }
}
