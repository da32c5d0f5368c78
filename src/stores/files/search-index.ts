import { relative } from 'node:path'
import type { Workspace } from '../../config/workspace.js'
import type { MemoryIdentity } from '../../memory/locations.js'
import type { SearchIndex } from '../../search/search-index.js'
import type { EmbedOptions, FreshnessOptions, FreshnessReport, KnowledgeStatusLookup, SearchReadiness, StoreIndex } from '../document-index.js'
import type { StorePlace } from '../store.js'

// Loaded on first use: SQLite and the embedder are heavy, and most commands never search.
const workspaceIndex = () => import('./indexing/workspace-index.js')

/** The files store's index: SQLite under the workspace's state folder, derived from the files and refreshed before each search. */
export class FilesIndex implements StoreIndex {
  private readonly workspace: Workspace

  constructor(private readonly place: StorePlace) {
    this.workspace = place.workspace
  }

  /** The workspace index, opened once per process (the MCP server keeps it), with its notices shown as warnings. */
  open(warn: (message: string) => void): Promise<SearchIndex> {
    return this.place.resources.get(
      'search-index',
      async () => {
        const index = await (await workspaceIndex()).openWorkspaceIndex(this.workspace, warn)
        // Messages name the index by its place in the workspace, never by an absolute path under the user's home.
        for (const notice of index.notices) warn(notice.replaceAll(index.path, relative(this.workspace.root, index.path)))
        return index
      },
      (index) => index.close(),
    )
  }

  async refresh(options: FreshnessOptions): Promise<FreshnessReport> {
    const [{ ensureFresh }, index] = await Promise.all([workspaceIndex(), this.open(options.warn)])
    return ensureFresh(index, this.workspace, options)
  }

  async embedPending(options: EmbedOptions): Promise<SearchReadiness> {
    const [{ embedBeforeSearch }, index] = await Promise.all([workspaceIndex(), this.open(options.warn)])
    return embedBeforeSearch(index, options)
  }

  async knowledgeStatus(identity: MemoryIdentity, warn: (message: string) => void): Promise<KnowledgeStatusLookup> {
    const index = await this.refreshed({ identity, folders: [], memory: false, warn })
    return (id) => {
      const [doc] = index.getMany([id])
      return doc?.kind === 'knowledge' ? doc.status : undefined
    }
  }

  /** The index after a refresh, for the store's own reads and writes. */
  async refreshed(options: FreshnessOptions): Promise<SearchIndex> {
    await this.refresh(options)
    return this.open(options.warn)
  }
}
