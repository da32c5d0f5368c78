import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { configSchema } from '../../src/config/schema.js'
import type { Workspace } from '../../src/config/workspace.js'
import { withVectorCache } from '../../src/eval/vector-cache.js'
import { memoryDocument } from '../../src/memory/memory-document.js'
import type { MemoryFolder } from '../../src/memory/locations.js'
import type { MemoryRecord } from '../../src/memory/model.js'
import { searchableText } from '../../src/search/documents.js'
import { createEmbeddingProvider } from '../../src/search/embedding/create.js'
import { maxEmbeddedChars } from '../../src/search/vector-store.js'
import { closeDatabases, postgresDatabase } from '../../src/stores/postgres/databases.js'
import { writeState } from '../../src/stores/postgres/document-index.js'
import { PostgresMemories } from '../../src/stores/postgres/memories.js'
import { TenantScope } from '../../src/stores/postgres/place.js'
import { asBytes } from '../../src/stores/postgres/vectors.js'
import { startCluster, type Cluster } from '../postgres-cluster.js'
import { benchMemoryContent, benchQueries, memoryWorkspace } from './mcp-search.js'
import { mkBin, round } from './measure.js'
import { projectMemoryRecord } from './memory-files.js'
import { load, ready, search, startServe, type Started } from './serve.js'

/** Tenant sizes, from MK_BENCH_SERVE_MEMORIES (comma-separated); issue 31 asks for 1,000, 10,000 and 100,000. */
const sizes = (process.env.MK_BENCH_SERVE_MEMORIES ?? '1000,10000,100000').split(',').map(Number)
/** The file store is measured up to this size: its index embeds every memory with the bundled model. */
const filesUpTo = Number(process.env.MK_BENCH_SERVE_FILES_UP_TO ?? 10_000)
/**
 * At most this many distinct vectors are embedded (MK_BENCH_SERVE_DISTINCT_VECTORS); memory i beyond
 * them gets the vector of memory i mod this number. Embedding 100,000 texts on two shared cores takes
 * about an hour; a search compares the query with every held vector whatever their values.
 */
const distinctVectors = Number(process.env.MK_BENCH_SERVE_DISTINCT_VECTORS ?? 10_000)
/** How long a first search may take. */
const warmUpMs = 600_000
const seconds = Number(process.env.MK_BENCH_SERVE_SECONDS ?? 10)
const connections = 10
const tenant = 'bench'
const json = { 'content-type': 'application/json' }

/** A process's resident memory in MB, from /proc (Linux). */
function rssMb(pid: number): number | null {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return line?.[1] === undefined ? null : round(Number(line[1]) / 1024)
}

const asTenant = (request: autocannon.Request): autocannon.Request => ({ ...request, headers: { ...request.headers, 'x-tenant-id': tenant } })

/**
 * The answers that were not 2xx, counted by status and the body's errorCode (`"500 INTERNAL_ERROR"`),
 * with the first message of each: a failed request says why, not only that it failed.
 */
class Failures {
  private readonly counts = new Map<string, { count: number; message: string }>()

  /** The request with its answers recorded here. */
  watch(request: autocannon.Request): autocannon.Request {
    return {
      ...request,
      onResponse: (status: number, body: string) => {
        if (status >= 200 && status < 300) return
        let code = 'no errorCode'
        let message = body.slice(0, 200)
        try {
          const parsed = JSON.parse(body) as { errorCode?: unknown; message?: unknown }
          if (typeof parsed.errorCode === 'string') code = parsed.errorCode
          if (typeof parsed.message === 'string') message = parsed.message.slice(0, 200)
        } catch {
          // Not JSON: the body's start is the message.
        }
        const key = `${status} ${code}`
        const known = this.counts.get(key)
        if (known === undefined) this.counts.set(key, { count: 1, message })
        else known.count += 1
      },
    }
  }

  /** Per status and errorCode, how many and the first message; socket errors and timeouts apart (they have no status). */
  report(results: readonly autocannon.Result[]): Record<string, unknown> {
    return {
      by_status: Object.fromEntries(this.counts),
      socket_errors: results.reduce((sum, result) => sum + result.errors, 0),
      timeouts: results.reduce((sum, result) => sum + result.timeouts, 0),
    }
  }
}

/** Warm searches, 10 connections spread over the replicas (each its share), measured together. */
async function searchLoad(replicas: readonly Started[], clients: number): Promise<Record<string, unknown>> {
  const share = Math.max(1, Math.floor(clients / replicas.length))
  const failures = new Failures()
  const results = await Promise.all(
    replicas.map((replica) =>
      autocannon({ url: replica.url, connections: share, duration: seconds, requests: benchQueries.map((q) => failures.watch(asTenant(search(q)))) }),
    ),
  )
  const latencies = results.map((result) => result.latency)
  return {
    requests_per_s: round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    // Per replica; with one replica these are the figures.
    p50_ms: latencies.map((latency) => latency.p50),
    p99_ms: latencies.map((latency) => latency.p99),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    failures: failures.report(results),
  }
}

/** memory_add of new content (each request its own text) for `seconds`, 4 connections spread over the replicas. */
async function writeLoad(replicas: readonly Started[]): Promise<Record<string, unknown>> {
  let written = 0
  const failures = new Failures()
  const add: autocannon.Request = failures.watch(
    asTenant({
      method: 'POST',
      path: '/v1/tools/memory_add',
      headers: json,
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ content: `Write ${process.pid}-${written++}: the ${benchMemoryContent(written)}`, layer: 'project' }),
      }),
    }),
  )
  const results = await Promise.all(
    replicas.map((replica) => autocannon({ url: replica.url, connections: 4 / replicas.length, duration: seconds, requests: [add] })),
  )
  return {
    memory_add_per_s: round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    p50_ms: results.map((result) => result.latency.p50),
    p99_ms: results.map((result) => result.latency.p99),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    failures: failures.report(results),
  }
}

/**
 * `count` memories of the bench's texts straight into the tenant's scope through the store's own
 * bulk write (PostgresMemories.rewrite: memory rows, history and search documents), then their
 * vectors, embedded once by the bundled model and cached in the temp folder across runs, written
 * into the documents with the model recorded: what `mk serve --store` would hold after as many
 * memory_add calls and an embedding pass, without a hundred thousand HTTP round trips.
 */
async function loadTenant(url: string, root: string, count: number): Promise<Record<string, unknown>> {
  const database = postgresDatabase(url, 4)
  const workspace: Workspace = { root, configPath: undefined, config: configSchema.parse({}), mkHome: root, stateDir: root }
  const place = new TenantScope(database.pool, tenant, 'default', workspace)
  const memories = new PostgresMemories(place)
  const folder: MemoryFolder = { layer: 'project', key: 'project', dir: root, private: false, owner: undefined }
  const provider = await createEmbeddingProvider(configSchema.parse({}).search.embedding, { workspaceRoot: root })
  if (provider === undefined) throw new Error('the bundled embedding model did not load')
  const embedder = await withVectorCache(provider, join(tmpdir(), 'mk-eval-vectors'))
  const now = new Date().toISOString()
  // Memory i's text and tag: the vector of memory i mod distinctVectors is that memory's own (its tag
  // included), so at most distinctVectors texts are embedded (with the tag of memory i they were 13 times as many).
  const benchRecord = (index: number): MemoryRecord =>
    projectMemoryRecord({ content: benchMemoryContent(index), when: now, source: 'cli', tags: [`t${index % 13}`] })
  let writeMs = 0
  let embedMs = 0
  try {
    for (let start = 0; start < count; start += 1000) {
      const records: MemoryRecord[] = Array.from({ length: Math.min(1000, count - start) }, (_, offset) => benchRecord(start + offset))
      let started = performance.now()
      await memories.rewrite(folder, records, 'bench load', { warn: () => undefined })
      writeMs += performance.now() - started
      started = performance.now()
      const vectors = await embedder.embed(
        records.map((record, offset) => searchableText(memoryDocument(benchRecord((start + offset) % distinctVectors), folder)).slice(0, maxEmbeddedChars)),
        'document',
      )
      embedMs += performance.now() - started
      started = performance.now()
      await place.run((client) =>
        client.query(
          'UPDATE mk_documents d SET embedding = v.embedding FROM unnest($2::text[], $3::bytea[]) v(id, embedding) WHERE d.scope = $1 AND d.id = v.id',
          ['default', records.map((record) => record.id), vectors.map(asBytes)],
        ),
      )
      writeMs += performance.now() - started
    }
    await place.run((client) => writeState(client, 'default', 'model', embedder.modelId))
    // What autovacuum does within a minute or so of a bulk load: the planner's statistics of the loaded tables.
    const started = performance.now()
    await place.run((client) => client.query('ANALYZE mk_documents; ANALYZE mk_document_terms; ANALYZE mk_memories'))
    const analyzeMs = performance.now() - started
    return {
      write_s: round(writeMs / 1000, 1),
      analyze_s: round(analyzeMs / 1000, 1),
      embed_s: round(embedMs / 1000, 1),
      vectors_cached: embedder.stats.cached,
      vectors_embedded: embedder.stats.embedded,
    }
  } finally {
    await embedder.close?.()
    await closeDatabases()
  }
}

async function postgresAt(cluster: Cluster, count: number): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-serve-pg-'))
  const url = cluster.createDatabase()
  const replicas: Started[] = []
  try {
    const loaded = await loadTenant(url, root, count)
    const start = async (name: string): Promise<Started> => {
      const replica = await startServe(root, ['--port', '0', '--data', join(root, `data-${name}`), '--store', url])
      await ready(replica.url)
      replicas.push(replica)
      return replica
    }
    const first = await start('a')
    const rssStarted = rssMb(first.pid)
    let warmed = performance.now()
    const warm = async (replica: Started): Promise<void> => {
      const answer = await fetch(`${replica.url}/v1/tools/memory_search`, {
        method: 'POST',
        headers: { ...json, 'x-tenant-id': tenant },
        body: JSON.stringify({ query: 'warm up' }),
      })
      if (answer.status !== 200) throw new Error(`warm-up search answered ${answer.status}: ${await answer.text()}`)
    }
    await warm(first)
    const firstSearchMs = performance.now() - warmed
    const rssWarm = rssMb(first.pid)
    const oneClient = await searchLoad([first], 1)
    const oneReplica = await searchLoad([first], connections)
    const second = await start('b')
    warmed = performance.now()
    await warm(second)
    const secondFirstMs = performance.now() - warmed
    const twoReplicas = await searchLoad([first, second], connections)
    return {
      memories: count,
      load: loaded,
      first_search_ms: round(firstSearchMs),
      second_replica_first_search_ms: round(secondFirstMs),
      replica_rss_mb: { started: rssStarted, tenant_held: rssWarm, per_tenant: rssStarted === null || rssWarm === null ? null : round(rssWarm - rssStarted) },
      search_1_client: oneClient,
      search_10_connections_1_replica: oneReplica,
      search_10_connections_2_replicas: twoReplicas,
      load_average: loadavg().map((value) => round(value, 2)),
    }
  } finally {
    for (const replica of replicas) await replica.stop()
    await rm(root, { recursive: true, force: true })
  }
}

/**
 * The file store's server over `count` memories. Its first search would read and embed every memory
 * file itself (10,000 texts with the bundled model take minutes on two shared cores, longer under
 * load: the 10+ minute first search of an earlier run), so `mk index update` builds the index first,
 * timed apart, and the server's first search only opens it.
 */
async function filesAt(count: number): Promise<Record<string, unknown>> {
  if (count > filesUpTo) return { memories: count, skipped: `above MK_BENCH_SERVE_FILES_UP_TO (${filesUpTo}): its index embeds every memory` }
  const root = await memoryWorkspace(count, 'bundled')
  const indexStarted = performance.now()
  const indexed = spawnSync(process.execPath, [mkBin, 'index', 'update', '--json'], {
    cwd: root,
    env: { ...process.env, MK_HOME: `${root}/home`, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const indexS = round((performance.now() - indexStarted) / 1000, 1)
  if (indexed.status !== 0) return { memories: count, skipped: `mk index update failed: ${indexed.stderr.trim().slice(0, 500)}` }
  const server = await startServe(root)
  try {
    await ready(server.url)
    const rssStarted = rssMb(server.pid)
    const started = performance.now()
    const answer = await fetch(`${server.url}/v1/tools/memory_search`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: 'warm up' }),
      signal: AbortSignal.timeout(warmUpMs),
    }).catch((error: unknown) => error)
    if (!(answer instanceof Response)) return { memories: count, skipped: `the first search did not answer within ${warmUpMs / 1000} s: ${String(answer)}` }
    await answer.text()
    const firstSearchMs = performance.now() - started
    const rssWarm = rssMb(server.pid)
    return {
      memories: count,
      index_update_s: indexS,
      embedded_per_s: round(count / indexS),
      first_search_ms: round(firstSearchMs),
      server_rss_mb: { started: rssStarted, tenant_held: rssWarm },
      search_1_client: await load(server.url, benchQueries.map(search), 1, seconds),
      search_10_connections: await load(server.url, benchQueries.map(search), connections, seconds),
      load_average: loadavg().map((value) => round(value, 2)),
    }
  } finally {
    await server.stop()
    await rm(root, { recursive: true, force: true })
  }
}

/** Writes on one replica and on two, into a small tenant: memory_add per second with each request a new memory. */
async function writesAt(cluster: Cluster): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-serve-pg-writes-'))
  const url = cluster.createDatabase()
  const replicas: Started[] = []
  try {
    for (const name of ['a', 'b']) {
      const replica = await startServe(root, ['--port', '0', '--data', join(root, `data-${name}`), '--store', url])
      await ready(replica.url)
      replicas.push(replica)
    }
    const [first] = replicas as [Started]
    return { one_replica: await writeLoad([first]), two_replicas: await writeLoad(replicas) }
  } finally {
    for (const replica of replicas) await replica.stop()
    await rm(root, { recursive: true, force: true })
  }
}

/**
 * `mk serve --store postgres://…` against the file store, per tenant size: warm memory_search p50/p99 and
 * requests per second with one replica and two on one database, the memory a replica holds for the
 * tenant, and memory_add throughput. A throwaway cluster on 127.0.0.1 (fsync off, as in tests).
 */
export async function benchServePostgres(): Promise<Record<string, unknown>> {
  const cluster = await startCluster()
  if ('skipped' in cluster) return { skipped: cluster.skipped }
  try {
    const tenants: Record<string, unknown>[] = []
    for (const size of sizes) {
      process.stderr.write(`serve-postgres: ${size} memories\n`)
      const figures = { files: await filesAt(size), postgres: await postgresAt(cluster, size) }
      // Each size as it is measured: a run stopped later keeps what it measured.
      process.stderr.write(`${JSON.stringify(figures)}\n`)
      tenants.push(figures)
    }
    return { seconds, connections, tenants, writes: await writesAt(cluster) }
  } finally {
    cluster.stop()
  }
}
