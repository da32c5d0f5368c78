import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { configSchema } from '../../src/config/schema.js'
import type { Workspace } from '../../src/config/workspace.js'
import { withVectorCache } from '../../src/eval/vector-cache.js'
import { searchableText } from '../../src/search/documents.js'
import { createEmbeddingProvider } from '../../src/search/embedding/create.js'
import type { EmbeddingProvider } from '../../src/search/embedding/provider.js'
import { openPool } from '../../src/stores/postgres/connection.js'
import { PostgresDocumentIndex } from '../../src/stores/postgres/document-index.js'
import { upsertDocuments } from '../../src/stores/postgres/documents.js'
import { migrate } from '../../src/stores/postgres/migrations.js'
import { vectorPath } from '../../src/stores/postgres/pgvector.js'
import { replicaScope } from '../../src/stores/postgres/place.js'
import { asBytes, ReplicaVectors } from '../../src/stores/postgres/vectors.js'
import { startVectorDatabase, type VectorDatabase } from '../pglite-server.js'
import { benchMemoryDocument, benchQueries } from './mcp-search.js'
import { median, round } from './measure.js'

const sizes = (process.env.MK_BENCH_PGVECTOR_SIZES ?? '1000,10000').split(',').map(Number)
const rounds = Number(process.env.MK_BENCH_PGVECTOR_ROUNDS ?? 3)
const searchesPerRound = Number(process.env.MK_BENCH_PGVECTOR_SEARCHES ?? 20)
/** Texts embedded with the bundled model; memory i beyond takes text i mod this one's vector, nudged so no two vectors are equal. */
const distinctTexts = Number(process.env.MK_BENCH_PGVECTOR_DISTINCT ?? 2000)

interface Side {
  path: 'pgvector' | 'replica-memory'
  database: VectorDatabase
  pool: Pool
  vectors: ReplicaVectors
  index: PostgresDocumentIndex
}

const doc = benchMemoryDocument

/** Deterministic small noise, so the copies of one text's vector are near, never equal. */
function nudged(vector: Float32Array, n: number): Float32Array {
  let seed = n * 2654435761
  const out = vector.map((value) => {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) ^ Math.imul(seed ^ (seed >>> 13), 3266489909)
    return value + (((seed >>> 0) / 2 ** 32) * 2 - 1) * 0.002
  })
  const norm = Math.hypot(...out)
  return out.map((value) => value / norm)
}

async function open(path: Side['path'], embedder: EmbeddingProvider, vectorsOf: Float32Array[], count: number): Promise<Side> {
  const database = await startVectorDatabase({ extension: path === 'pgvector' })
  // PGlite is one session: two connections (the listening one and one that reads), kept open.
  const pool = await openPool({ url: database.url, poolSize: 2 })
  pool.options.idleTimeoutMillis = 0
  await migrate(pool)
  const found = await vectorPath(pool)
  if (found.kind !== path) throw new Error(`expected the ${path} path, the database has ${found.kind}`)
  const vectors = new ReplicaVectors(async () => pool)
  const place = replicaScope({ pool: async () => pool, vectors: vectors }, 'bench', 'default', {} as Workspace)
  for (let start = 0; start < count; start += 500) {
    const documents = Array.from({ length: Math.min(500, count - start) }, (_, offset) => doc(start + offset))
    await place.run(async (client) => {
      await upsertDocuments(client, 'default', documents)
      await client.query(
        'UPDATE mk_documents d SET embedding = v.embedding FROM unnest($2::text[], $3::bytea[]) v(id, embedding) WHERE d.scope = $1 AND d.id = v.id',
        ['default', documents.map((document) => document.id), documents.map((_, offset) => asBytes(vectorsOf[start + offset] ?? new Float32Array()))],
      )
    })
  }
  await pool.query('ANALYZE mk_documents')
  vectors.forget(place)
  return { path, database, pool, vectors, index: new PostgresDocumentIndex(place, vectors, embedder) }
}

async function close(side: Side): Promise<void> {
  await side.vectors.close()
  await side.pool.end()
  await side.database.stop()
}

/** One round of searches on one side: wall time per search, and the process's CPU time per search (PGlite runs in this process: the database's work included). */
async function searchRound(side: Side, queryVectors: Float32Array[]): Promise<{ ms: number[]; cpuMs: number }> {
  const ms: number[] = []
  const cpu = process.cpuUsage()
  for (let n = 0; n < searchesPerRound; n++) {
    const question = n % benchQueries.length
    const started = performance.now()
    await side.index.search({
      text: benchQueries[question] ?? '',
      mode: 'hybrid',
      limit: 10,
      queryVector: queryVectors[question],
      filters: { kind: 'memory', consumer: { agentId: undefined, teamId: undefined } },
    })
    ms.push(performance.now() - started)
  }
  const used = process.cpuUsage(cpu)
  return { ms, cpuMs: (used.user + used.system) / 1000 / searchesPerRound }
}

/**
 * Warm hybrid search on the PostgreSQL store's two vector paths, on the same engine (PGlite,
 * PostgreSQL 17 in WebAssembly, in this process) with the same documents and vectors: pgvector
 * (the database's HNSW) and replica memory (no extension). Rounds alternate between the paths.
 * Also the memory each holds: the vectors a replica keeps for the tenant.
 */
export async function benchPgvector(): Promise<Record<string, unknown>> {
  const provider = await createEmbeddingProvider(configSchema.parse({}).search.embedding, { workspaceRoot: tmpdir() })
  if (provider === undefined) return { skipped: 'the bundled embedding model did not load' }
  const embedder = await withVectorCache(provider, join(tmpdir(), 'mk-eval-vectors'))
  const results: Record<string, unknown> = {
    engine: 'PGlite 0.4.6 (PostgreSQL 17.5, WebAssembly, in process), pgvector 0.8.1',
    rounds,
    searches_per_round: searchesPerRound,
  }
  const queryVectors = await embedder.embed(benchQueries, 'query')
  for (const count of sizes) {
    const texts = Array.from({ length: Math.min(count, distinctTexts) }, (_, n) => searchableText(doc(n)))
    const distinct = await embedder.embed(texts, 'document')
    const vectorsOf = Array.from({ length: count }, (_, n) =>
      n < distinct.length ? (distinct[n] as Float32Array) : nudged(distinct[n % distinct.length] as Float32Array, n),
    )
    const loadStarted = performance.now()
    const sides = [await open('pgvector', embedder, vectorsOf, count), await open('replica-memory', embedder, vectorsOf, count)]
    const loadMs = performance.now() - loadStarted
    const figures: Record<string, unknown> = { load_ms_both: round(loadMs) }
    try {
      const times = new Map<string, { ms: number[]; cpuMs: number[] }>(sides.map((side) => [side.path, { ms: [], cpuMs: [] }]))
      for (const side of sides) {
        global.gc?.()
        const before = process.memoryUsage()
        const first = performance.now()
        await searchRound(side, queryVectors).then(() => undefined)
        const after = process.memoryUsage()
        figures[`${side.path}_first_round_ms`] = round(performance.now() - first)
        figures[`${side.path}_held`] = {
          ...(await side.vectors.size()),
          rss_delta_mb: round((after.rss - before.rss) / 1e6),
          array_buffers_delta_mb: round((after.arrayBuffers - before.arrayBuffers) / 1e6),
        }
      }
      const load: number[][] = []
      for (let r = 0; r < rounds; r++) {
        for (const side of sides) {
          const measured = await searchRound(side, queryVectors)
          const kept = times.get(side.path)
          kept?.ms.push(...measured.ms)
          kept?.cpuMs.push(measured.cpuMs)
          load.push(loadavg())
        }
      }
      for (const [path, measured] of times) {
        const sorted = [...measured.ms].sort((a, b) => a - b)
        figures[path] = {
          p50_ms: round(median(measured.ms)),
          p99_ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0),
          cpu_ms_per_search: measured.cpuMs.map((value) => round(value)),
        }
      }
      figures.load_average_1m = load.map((value) => round(value[0] ?? 0, 2))
    } finally {
      for (const side of sides) await close(side)
    }
    results[String(count)] = figures
  }
  await provider.close?.()
  return results
}
