import type { Client, Pool } from 'pg'
import { backgroundSize } from '../../search/vector-evidence.js'
import { VectorTable } from '../../search/vector-table.js'
import { openListener, retryableOrSame } from './connection.js'
import { documentsChannel } from './documents.js'
import { preparedRead, type TenantScope } from './place.js'
import { SiblingVectors } from './sibling-vectors.js'

/**
 * One scope's stored vectors as this replica holds them, in storage order (what calibration samples
 * first), in one table built once per read: a search ranks them without copying a vector.
 */
export interface HeldVectors {
  table: VectorTable
}

/** What BM25 and the embedding pass need of a whole scope. */
export interface ScopeCorpus {
  docs: number
  avglen: number
  /** Documents without a vector. */
  pending: number
}

const corpusStatement = preparedRead(
  `SELECT count(*)::float8 AS docs, greatest(avg(length), 1)::float8 AS avglen, count(*) FILTER (WHERE embedding IS NULL)::float8 AS pending
   FROM mk_documents WHERE scope = $1`,
)

const vectorsStatement = preparedRead('SELECT n, embedding FROM mk_documents WHERE scope = $1 AND embedding IS NOT NULL ORDER BY n')

const sampleStatement = preparedRead(`SELECT embedding FROM mk_documents WHERE scope = $1 AND embedding IS NOT NULL ORDER BY n LIMIT ${backgroundSize}`)

export const asVector = (bytes: Buffer): Float32Array => {
  // A copy: the driver's buffers may share one allocation, and a Float32Array needs an aligned offset.
  const copy = new Uint8Array(bytes)
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4)
}

export const asBytes = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

/**
 * Without pgvector the vectors live in the database and are searched in each replica's memory:
 * a scope's vectors are read once, then dropped whenever any replica announces (NOTIFY) that the
 * scope's documents changed, and read again on the next vector search. While the listening
 * connection is down nothing held is trusted.
 */
export class ReplicaVectors {
  private readonly held = new Map<string, Promise<HeldVectors>>()
  /** Per scope, what BM25 needs of the whole scope (documents, mean length): a scan of every row, kept as the vectors are. */
  private readonly corpora = new Map<string, Promise<ScopeCorpus>>()
  /** Per scope, its first vectors in storage order: the calibration sample of a search whose database ranks the vectors (pgvector). */
  private readonly samples = new Map<string, Promise<Float32Array[]>>()
  private listener: Promise<Client> | undefined
  /** The other threads of this process on the same database, when `database` names it. */
  private readonly siblings: SiblingVectors | undefined

  /** `database` (its URL): share what is read with the process's other threads on it (mk serve's tool threads). */
  constructor(
    private readonly pool: () => Promise<Pool>,
    database?: string,
  ) {
    this.siblings = database === undefined ? undefined : new SiblingVectors(database)
  }

  /** The scope's vectors, read from the database when this replica holds none that are current. */
  async of(place: TenantScope): Promise<HeldVectors> {
    // Subscribed before reading: a change committed after the read is always heard.
    await this.listen()
    const key = `${place.tenantId}/${place.scope}`
    let vectors = this.held.get(key)
    if (vectors === undefined) {
      vectors = this.read(place, key)
      this.held.set(key, vectors)
      vectors.catch(() => this.held.delete(key))
    }
    return vectors
  }

  /** The scope's vectors from a sibling thread that read them since the last change heard here, else from the database (told to the siblings). */
  private async read(place: TenantScope, key: string): Promise<HeldVectors> {
    const shared = await this.siblings?.table(key)
    if (shared !== undefined) return { table: shared }
    // Before the read is sent: the read holds every change committed before this instant.
    const readFrom = Date.now()
    this.siblings?.reading(key, readFrom)
    let table: VectorTable | undefined
    try {
      const rows = await place.read<{ n: string; embedding: Buffer }>(vectorsStatement, [place.scope])
      table = VectorTable.of(rows.map((row) => ({ rowid: Number(row.n), vector: asVector(row.embedding) })))
      return { table }
    } finally {
      this.siblings?.read(key, readFrom, table)
    }
  }

  /**
   * The scope's document count, mean length in words and documents waiting for a vector, read
   * (one round trip) when this replica holds none that are current: a search asks no question
   * of the database that a write has not made stale.
   */
  async corpus(place: TenantScope): Promise<ScopeCorpus> {
    await this.listen()
    const key = `${place.tenantId}/${place.scope}`
    let corpus = this.corpora.get(key)
    if (corpus === undefined) {
      corpus = place.read<ScopeCorpus>(corpusStatement, [place.scope]).then((rows) => rows[0] ?? { docs: 0, avglen: 1, pending: 0 })
      this.corpora.set(key, corpus)
      corpus.catch(() => this.corpora.delete(key))
    }
    return corpus
  }

  /**
   * The scope's first vectors in storage order (at most backgroundSize), the calibration sample:
   * taken from the held vectors when this replica holds them, else read once (pgvector holds no
   * vector in the replica) and kept until a write to the scope, as the vectors are.
   */
  async sample(place: TenantScope): Promise<Float32Array[]> {
    await this.listen()
    const key = `${place.tenantId}/${place.scope}`
    const held = this.held.get(key)
    if (held !== undefined) {
      const { table } = await held
      return Array.from({ length: Math.min(table.size, backgroundSize) }, (_, position) => table.vector(position))
    }
    let sample = this.samples.get(key)
    if (sample === undefined) {
      sample = place.read<{ embedding: Buffer }>(sampleStatement, [place.scope]).then((rows) => rows.map((row) => asVector(row.embedding)))
      this.samples.set(key, sample)
      sample.catch(() => this.samples.delete(key))
    }
    return sample
  }

  /** Drop what this replica holds of a scope (its own write, before the notification arrives). */
  forget(place: TenantScope): void {
    this.drop(`${place.tenantId}/${place.scope}`)
  }

  private drop(key: string): void {
    this.siblings?.dropped(key)
    this.held.delete(key)
    this.corpora.delete(key)
    this.samples.delete(key)
  }

  /** The listener was lost: nothing held is trusted, here or in the siblings (changes may have gone unheard). */
  private dropAll(): void {
    this.siblings?.dropped(undefined)
    this.clear()
  }

  private clear(): void {
    this.held.clear()
    this.corpora.clear()
    this.samples.clear()
  }

  /** How many scopes and vectors this replica holds, for health. */
  async size(): Promise<{ scopes: number; vectors: number }> {
    let vectors = 0
    for (const held of this.held.values()) vectors += (await held.catch(() => undefined))?.table.size ?? 0
    return { scopes: this.held.size, vectors }
  }

  /** Subscribe to the scopes' changes, on a connection outside the pool (a pool of one connection keeps it to read with). */
  private listen(): Promise<Client> {
    if (this.listener !== undefined) return this.listener
    const listening = (async () => {
      const client = await openListener(await this.pool())
      const lost = (): void => {
        this.dropAll()
        if (this.listener === listening) this.listener = undefined
      }
      client.on('notification', (message) => {
        if (message.channel === documentsChannel && message.payload !== undefined) this.drop(message.payload)
      })
      client.on('error', () => {
        lost()
        void client.end().catch(() => undefined)
      })
      client.on('end', lost)
      try {
        await client.query(`LISTEN ${documentsChannel}`)
      } catch (error) {
        await client.end().catch(() => undefined)
        throw error
      }
      return client
    })()
    this.listener = listening
    listening.catch(() => {
      if (this.listener === listening) this.listener = undefined
    })
    return listening.catch((error: unknown) => {
      throw retryableOrSame(error)
    })
  }

  async close(): Promise<void> {
    const listener = this.listener
    this.listener = undefined
    this.clear()
    this.siblings?.close()
    const client = await listener?.catch(() => undefined)
    await client?.end().catch(() => undefined)
  }
}
