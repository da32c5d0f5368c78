import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import type { Workspace } from '../../config/workspace.js'
import type { MemoryIdentity } from '../../memory/locations.js'
import type { SearchIndex } from '../../search/search-index.js'
import type {
  EmbedOptions,
  FreshnessOptions,
  FreshnessReport,
  IndexHealth,
  IndexRefill,
  KnowledgeChange,
  KnowledgeReindex,
  KnowledgeStatusLookup,
  RefillOptions,
  SearchReadiness,
  StoreIndex,
} from '../index-store.js'
import type { StorePlace } from '../store.js'
import { indexPathOf } from './indexing/index-path.js'

// Loaded on first use: SQLite and the embedder are heavy, and most commands never search.
const workspaceIndex = () => import('./indexing/workspace-index.js')
const documents = () => import('./indexing/refresh.js')

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

  update(options: RefillOptions): Promise<IndexRefill> {
    return this.open(options.warn).then((index) => this.refill(index, options))
  }

  async rebuild(options: RefillOptions): Promise<IndexRefill> {
    const index = await this.open(options.warn)
    let refill: IndexRefill = { read: 0, embedded: 0, knowledgeProblems: [] }
    await index.rebuildFrom(async (fresh) => {
      refill = await this.refill(fresh, options)
    })
    return refill
  }

  /** Opened apart from the shared index and closed again: the doctor sees the file as the next process would. */
  async health(warn: (message: string) => void): Promise<IndexHealth> {
    const path = indexPathOf(this.workspace)
    if (!existsSync(path)) return { state: 'missing' }
    const [{ openWorkspaceIndex }, { knowledgeSignature }] = await Promise.all([workspaceIndex(), documents()])
    const index = await openWorkspaceIndex(this.workspace, warn)
    try {
      const damage = index.integrityProblem()
      if (damage !== undefined) return { state: 'damaged', problem: damage }
      if (index.notices.length > 0) return { state: 'notices', notices: index.notices.map((notice) => notice.replaceAll(index.path, this.where())) }
      return index.state('knowledge') === (await knowledgeSignature(this.workspace)) ? { state: 'current' } : { state: 'behind' }
    } finally {
      index.close()
    }
  }

  where(): string {
    return relative(this.workspace.root, indexPathOf(this.workspace))
  }

  /** Read every visible memory folder and knowledge source again, then embed what has no vector, reporting progress. */
  private async refill(index: SearchIndex, options: RefillOptions): Promise<IndexRefill> {
    const { ensureFresh } = await workspaceIndex()
    options.progress?.({ phase: 'reading files', done: 0, total: undefined })
    const report = await ensureFresh(index, this.workspace, { identity: options.identity, force: true, warn: options.warn })
    const read = report.memoriesRead + (report.knowledgeReloaded ? index.stats().knowledge : 0)
    options.progress?.({ phase: 'reading files', done: read, total: read })
    const embedded = await index.embedPending((done, total) => options.progress?.({ phase: 'embedding', done, total }), options.signal)
    return { read, embedded, knowledgeProblems: report.knowledgeProblems }
  }

  /** The knowledge signature of the index before a sync touched any file, when the index exists: only then can the delta keep it fresh. */
  async knowledgeMark(): Promise<string | undefined> {
    // The path openWorkspaceIndex uses, checked without opening SQLite: a sync need not load it.
    if (!existsSync(indexPathOf(this.workspace))) return undefined
    return (await documents()).knowledgeSignature(this.workspace)
  }

  async applyKnowledge(change: KnowledgeChange, warn: (message: string) => void): Promise<KnowledgeReindex> {
    const [{ knowledgeDocument, knowledgeSignature }, index] = await Promise.all([documents(), this.open(warn)])
    const wasFresh = index.state('knowledge') === change.mark
    index.upsert(change.upsert.map(knowledgeDocument))
    const removed = index.remove(change.remove)
    // The index was current before the sync, so with the delta applied it is current now.
    if (wasFresh) index.setState('knowledge', await knowledgeSignature(this.workspace))
    return { upserted: change.upsert.length, removed, keptFresh: wasFresh }
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
