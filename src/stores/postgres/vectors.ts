import type { Pool, PoolClient } from 'pg'
import { VectorTable } from '../../search/vector-table.js'
import { retryableOrSame } from './connection.js'
import { documentsChannel } from './documents.js'
import { preparedRead, type TenantScope } from './place.js'

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
  private listener: Promise<PoolClient> | undefined

  constructor(private readonly pool: () => Promise<Pool>) {}

  /** The scope's vectors, read from the database when this replica holds none that are current. */
  async of(place: TenantScope): Promise<HeldVectors> {
    // Subscribed before reading: a change committed after the read is always heard.
    await this.listen()
    const key = `${place.tenantId}/${place.scope}`
    let vectors = this.held.get(key)
    if (vectors === undefined) {
      vectors = place
        .read<{ n: string; embedding: Buffer }>(vectorsStatement, [place.scope])
        .then((rows) => ({ table: VectorTable.of(rows.map((row) => ({ rowid: Number(row.n), vector: asVector(row.embedding) }))) }))
      this.held.set(key, vectors)
      vectors.catch(() => this.held.delete(key))
    }
    return vectors
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

  /** Drop what this replica holds of a scope (its own write, before the notification arrives). */
  forget(place: TenantScope): void {
    this.held.delete(`${place.tenantId}/${place.scope}`)
    this.corpora.delete(`${place.tenantId}/${place.scope}`)
  }

  /** How many scopes and vectors this replica holds, for health. */
  async size(): Promise<{ scopes: number; vectors: number }> {
    let vectors = 0
    for (const held of this.held.values()) vectors += (await held.catch(() => undefined))?.table.size ?? 0
    return { scopes: this.held.size, vectors }
  }

  private listen(): Promise<PoolClient> {
    if (this.listener !== undefined) return this.listener
    const listening = (async () => {
      const client = await (await this.pool()).connect()
      const lost = (): void => {
        this.held.clear()
        this.corpora.clear()
        if (this.listener === listening) this.listener = undefined
      }
      client.on('notification', (message) => {
        if (message.channel === documentsChannel && message.payload !== undefined) {
          this.held.delete(message.payload)
          this.corpora.delete(message.payload)
        }
      })
      client.on('error', () => {
        lost()
        client.release(true)
      })
      client.on('end', lost)
      await client.query(`LISTEN ${documentsChannel}`)
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
    this.held.clear()
    this.corpora.clear()
    const client = await listener?.catch(() => undefined)
    client?.release(true)
  }
}
