import { knowledgeDocument, knowledgeDocuments, knowledgeSignature } from '../../directives/knowledge-documents.js'
import { MkError } from '../../errors.js'
import type { KnowledgeProblem } from '../../knowledge/model.js'
import type { MemoryIdentity } from '../../memory/locations.js'
import { memoryDocument } from '../../memory/memory-document.js'
import type { MemoryRecord } from '../../memory/model.js'
import { loadEmbedder } from '../../search/embedder.js'
import type { EmbeddingProvider } from '../../search/embedding/provider.js'
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
import type { StoreResources } from '../store.js'
import { announceChange, removeDocuments, upsertDocuments } from './documents.js'
import { PostgresDocumentIndex, readState, writeState } from './document-index.js'
import { newestSchema, schemaVersion } from './migrations.js'
import { indexedDimensions, vectorPath, type VectorPath } from './pgvector.js'
import type { TenantScope } from './place.js'
import type { ReplicaVectors } from './vectors.js'

/** Replicas hold their own copies of a tenant's knowledge, written at their own times: they sign its content, not where and when it was written. */
const portableSignature = { portable: true }

/** Where the index is, as messages say it: the database without credentials, and the tenant's scope. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}${parsed.port === '' ? '' : `:${parsed.port}`}${parsed.pathname}`
  } catch {
    return 'the configured database'
  }
}

/**
 * The index of a database store is written with the data, in the same transaction: nothing to
 * refresh for memories. Knowledge still comes from the workspace's files and is read again when
 * their signature changes, under a lock so two replicas do not load it twice.
 */
export class PostgresIndex implements StoreIndex {
  /** How this database searches vectors, once asked (health, or the index opened), and this tenant's model's dimensions. */
  private path: VectorPath | undefined
  private dimensions: number | undefined

  constructor(
    private readonly place: TenantScope,
    private readonly vectors: ReplicaVectors,
    private readonly resources: StoreResources,
    private readonly url: string,
  ) {}

  open(warn: (message: string) => void): Promise<PostgresDocumentIndex> {
    return this.resources.get('postgres-index', async () => {
      let embedder: EmbeddingProvider | undefined
      try {
        embedder = await loadEmbedder(this.place.workspace)
      } catch (error) {
        if (!(error instanceof MkError)) throw error
        warn(`${error.message}; searching full text only until the embedding model is fixed`)
      }
      this.dimensions = embedder?.dimensions
      this.path = await vectorPath(await this.place.pool())
      const modelChanged = await this.place.run(async (client) => {
        // Vectors of another model mean nothing to this one: they are embedded again.
        const model = embedder?.modelId ?? ''
        if (((await readState(client, this.place.scope, 'model')) ?? '') === model) return false
        await client.query('UPDATE mk_documents SET embedding = NULL WHERE scope = $1 AND embedding IS NOT NULL', [this.place.scope])
        await writeState(client, this.place.scope, 'model', model)
        await announceChange(client, this.place.scope)
        return true
      })
      // Opening changes nothing held unless the model did (forgetting would also make the other threads read the vectors again).
      if (modelChanged) this.vectors.forget(this.place)
      return new PostgresDocumentIndex(this.place, this.vectors, embedder)
    })
  }

  async refresh(options: FreshnessOptions): Promise<FreshnessReport> {
    const report: FreshnessReport = { memoriesRead: 0, foldersListed: 0, documentsRemoved: 0, knowledgeReloaded: false, knowledgeProblems: [] }
    if (options.knowledge === false) return report
    const knowledge = await this.refreshKnowledge(options.force === true)
    return { ...report, knowledgeReloaded: knowledge.reloaded, documentsRemoved: knowledge.removed, knowledgeProblems: knowledge.problems }
  }

  private async refreshKnowledge(force: boolean): Promise<{ reloaded: boolean; removed: number; problems: KnowledgeProblem[]; documents: number }> {
    const { workspace, scope } = this.place
    const signature = await knowledgeSignature(workspace, portableSignature)
    const stored = await this.place.run(async (client) => ({
      signature: await readState(client, scope, 'knowledge'),
      problems: await readState(client, scope, 'knowledge:problems'),
    }))
    if (!force && stored.signature === signature) return { reloaded: false, removed: 0, problems: parseProblems(stored.problems), documents: 0 }
    const { documents, problems } = await knowledgeDocuments(workspace)
    const removed = await this.place.run(async (client) => {
      await this.place.lockFolder(client, 'knowledge')
      const current = new Set(documents.map((doc) => doc.id))
      const known = await client.query<{ id: string }>("SELECT id FROM mk_documents WHERE scope = $1 AND kind IN ('knowledge', 'directive')", [scope])
      await upsertDocuments(client, scope, documents)
      const gone = await removeDocuments(
        client,
        scope,
        known.rows.map((row) => row.id).filter((id) => !current.has(id)),
      )
      await writeState(client, scope, 'knowledge', signature)
      await writeState(client, scope, 'knowledge:problems', JSON.stringify(problems))
      return gone
    })
    this.vectors.forget(this.place)
    return { reloaded: true, removed, problems, documents: documents.filter((doc) => doc.kind === 'knowledge').length }
  }

  async embedPending(options: EmbedOptions): Promise<SearchReadiness> {
    const index = await this.open(options.warn)
    if (!index.canSearchVectors) return { searchMode: 'fulltext', pendingEmbeddings: 0 }
    // A warm search finds nothing waiting: one question, not the three of an embedding pass.
    if ((await index.pendingCount()) === 0) return { searchMode: 'hybrid', pendingEmbeddings: 0 }
    try {
      await index.embedPending(options.progress, options.signal)
      return { searchMode: 'hybrid', pendingEmbeddings: await index.pendingCount() }
    } catch (error) {
      if (!(error instanceof MkError) || options.signal?.aborted === true) throw error
      const pendingEmbeddings = await index.pendingCount()
      options.warn(`${error.message}; searching full text only, ${pendingEmbeddings} documents are still waiting for an embedding`)
      return { searchMode: 'fulltext', pendingEmbeddings }
    }
  }

  /** Derive every memory's document again from its row, read the knowledge again, and embed what waits. */
  async update(options: RefillOptions): Promise<IndexRefill> {
    return this.refill(options, false)
  }

  /** As update, from an empty index of the scope: every document is derived again (and embedded again). */
  async rebuild(options: RefillOptions): Promise<IndexRefill> {
    return this.refill(options, true)
  }

  private async refill(options: RefillOptions, fromNothing: boolean): Promise<IndexRefill> {
    const index = await this.open(options.warn)
    const { scope } = this.place
    options.progress?.({ phase: 'reading the database', done: 0, total: undefined })
    const memories = await this.place.run(async (client) => {
      if (fromNothing) {
        await client.query('DELETE FROM mk_documents WHERE scope = $1', [scope])
        await client.query("DELETE FROM mk_index_state WHERE scope = $1 AND key LIKE 'knowledge%'", [scope])
      }
      const rows = await client.query<{ folder: string; record: MemoryRecord; tier: string | null }>(
        `SELECT m.folder, m.record, t.tier FROM mk_memories m
         LEFT JOIN mk_tiers t ON t.tenant_id = m.tenant_id AND t.scope = m.scope AND t.folder = m.folder AND t.id = m.id WHERE m.scope = $1`,
        [scope],
      )
      const documents = rows.rows.map((row) => {
        const folder = { layer: row.record.layer, key: row.folder, dir: '', private: isPrivateKey(row.folder), owner: row.record.owner }
        return memoryDocument({ ...row.record, tier: (row.tier as MemoryRecord['tier']) ?? row.record.tier }, folder)
      })
      await upsertDocuments(client, scope, documents)
      return documents.length
    })
    const knowledge = await this.refreshKnowledge(true)
    const read = memories + knowledge.documents
    options.progress?.({ phase: 'reading the database', done: read, total: read })
    const embedded = await index.embedPending((done, total) => options.progress?.({ phase: 'embedding', done, total }), options.signal)
    return { read, embedded, knowledgeProblems: knowledge.problems }
  }

  async health(): Promise<IndexHealth> {
    const pool = await this.place.pool()
    this.path = await vectorPath(pool)
    const version = await schemaVersion(pool)
    if (version < newestSchema) return { state: 'damaged', problem: `the database schema is at version ${version} of ${newestSchema}: run mk serve --migrate` }
    const stored = await this.place.run((client) => readState(client, this.place.scope, 'knowledge'))
    if (stored === undefined) return { state: 'missing' }
    return stored === (await knowledgeSignature(this.place.workspace, portableSignature)) ? { state: 'current' } : { state: 'behind' }
  }

  where(): string {
    return `postgres ${describeDatabase(this.url)} (tenant ${this.place.tenantId}, scope ${this.place.scope}; ${this.vectorsWhere()})`
  }

  private vectorsWhere(): string {
    if (this.path === undefined) return 'vector search not asked of the database yet'
    if (this.path.kind === 'replica-memory') return 'vectors searched in replica memory, no pgvector'
    if (this.dimensions !== undefined && this.dimensions !== indexedDimensions)
      return `vectors searched in replica memory: pgvector ${this.path.version} indexes ${indexedDimensions} dimensions, this model has ${this.dimensions}`
    return `vectors searched by pgvector ${this.path.version} (HNSW)`
  }

  async knowledgeMark(): Promise<string | undefined> {
    const stored = await this.place.run((client) => readState(client, this.place.scope, 'knowledge'))
    return stored === undefined ? undefined : knowledgeSignature(this.place.workspace, portableSignature)
  }

  async applyKnowledge(change: KnowledgeChange): Promise<KnowledgeReindex> {
    const { scope } = this.place
    const signature = await knowledgeSignature(this.place.workspace, portableSignature)
    const outcome = await this.place.run(async (client) => {
      await this.place.lockFolder(client, 'knowledge')
      const wasFresh = (await readState(client, scope, 'knowledge')) === change.mark
      await upsertDocuments(client, scope, change.upsert.map(knowledgeDocument))
      const removed = await removeDocuments(client, scope, change.remove)
      // The index was current before the sync, so with the delta applied it is current now.
      if (wasFresh) await writeState(client, scope, 'knowledge', signature)
      return { upserted: change.upsert.length, removed, keptFresh: wasFresh }
    })
    this.vectors.forget(this.place)
    return outcome
  }

  async knowledgeStatus(_identity: MemoryIdentity, warn: (message: string) => void): Promise<KnowledgeStatusLookup> {
    await this.open(warn)
    await this.refreshKnowledge(false)
    const rows = await this.place.run((client) =>
      client.query<{ id: string; status: string | null }>("SELECT id, status FROM mk_documents WHERE scope = $1 AND kind = 'knowledge'", [this.place.scope]),
    )
    const statuses = new Map(rows.rows.map((row) => [row.id, row.status ?? undefined]))
    return (id) => statuses.get(id)
  }
}

/** Folders of MK_HOME's layers (agent, session, user) are private; the others are shared through the repository. */
const isPrivateKey = (key: string): boolean => /^(agent|session|user)(\/|$)/.test(key)

function parseProblems(json: string | undefined): KnowledgeProblem[] {
  const stored: unknown = JSON.parse(json ?? '[]')
  return Array.isArray(stored) ? stored.filter((entry): entry is KnowledgeProblem => typeof entry === 'object' && entry !== null && 'file' in entry) : []
}
