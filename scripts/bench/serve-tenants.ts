import { readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chatMemories, chatQueries } from './chat-memories.js'
import { median, round } from './measure.js'
import { writeProjectMemory } from './memory-files.js'
import { startServe, type Started } from './serve.js'

const tenants = 8
const memoriesPerTenant = 20
/** Tenant sizes along the other axis of ADR 0020's ceiling, from MK_BENCH_TENANT_MEMORIES (comma-separated). */
const largeSizes = (process.env.MK_BENCH_TENANT_MEMORIES ?? '1000,10000').split(',').map(Number)
/** Copies of the largest tenant served at once, to see what each costs when all are that size. */
const largeCopies = 3

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

function caller(server: Started) {
  return (tenant: string, tool: string, body: unknown): Promise<unknown> =>
    fetch(`${server.url}/v1/tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-id': tenant },
      body: JSON.stringify(body),
    }).then((response) => response.json())
}

/** The server's resident memory as small tenants become active (each adds memories and searches). */
async function manySmallTenants(server: Started): Promise<Record<string, unknown>> {
  const call = caller(server)
  const rows = [{ active_tenants: 0, rss_mb: round(rssMb(server.pid)) }]
  for (let tenant = 1; tenant <= tenants; tenant++) {
    for (let fact = 0; fact < memoriesPerTenant; fact++) {
      await call(`t${tenant}`, 'memory_add', { content: `Fact ${fact} of tenant ${tenant}: the deploy pipeline needs ${fact} approvals`, layer: 'project' })
    }
    await call(`t${tenant}`, 'memory_search', { query: 'deploy pipeline approvals' })
    rows.push({ active_tenants: tenant, rss_mb: round(rssMb(server.pid)) })
  }
  const first = rows[1]?.rss_mb ?? 0
  const last = rows.at(-1)?.rss_mb ?? 0
  return { memories_per_tenant: memoriesPerTenant, rows, mb_per_further_tenant: round((last - first) / (tenants - 1)) }
}

/** Warm memory_search latency of a tenant over questions it has not been asked, each asked once. */
async function searchP50(call: ReturnType<typeof caller>, tenant: string): Promise<number> {
  const times: number[] = []
  for (const query of chatQueries) {
    const started = performance.now()
    await call(tenant, 'memory_search', { query })
    times.push(performance.now() - started)
  }
  return round(median(times))
}

/**
 * Tenants of many memories, written as files into their stores before the server first sees
 * them: what the first search costs (reading and embedding them all), what a warm search
 * costs, and what each such tenant adds to the server's memory. The largest is then copied
 * (files and index) into further tenants, served at once.
 */
async function largeTenants(server: Started, dataDir: string): Promise<Record<string, unknown>> {
  const call = caller(server)
  const rows: Record<string, unknown>[] = []
  const now = new Date().toISOString()
  let largest = ''
  for (const size of largeSizes) {
    const tenant = `m${size}`
    const folder = join(dataDir, 'tenants', tenant, 'workspace', 'knowledge', 'memory')
    await mkdir(folder, { recursive: true })
    const texts = chatMemories(size, size)
    for (let start = 0; start < texts.length; start += 500) {
      await Promise.all(texts.slice(start, start + 500).map((content) => writeProjectMemory(folder, { content, when: now, source: 'bench' })))
    }
    const before = rssMb(server.pid)
    const started = performance.now()
    await call(tenant, 'memory_search', { query: 'warm up' })
    const firstSearchMs = performance.now() - started
    rows.push({
      tenant,
      memories: size,
      first_search_s: round(firstSearchMs / 1000),
      warm_search_p50_ms: await searchP50(call, tenant),
      rss_added_mb: round(rssMb(server.pid) - before),
    })
    largest = tenant
  }
  const copies: Record<string, unknown>[] = []
  for (let copy = 1; copy <= largeCopies; copy++) {
    const tenant = `${largest}-copy${copy}`
    await cp(join(dataDir, 'tenants', largest), join(dataDir, 'tenants', tenant), { recursive: true })
    const before = rssMb(server.pid)
    await call(tenant, 'memory_search', { query: 'warm up' })
    copies.push({ tenant, warm_search_p50_ms: await searchP50(call, tenant), rss_added_mb: round(rssMb(server.pid) - before) })
  }
  return { sizes: rows, copies_of_largest: copies, rss_mb_at_end: round(rssMb(server.pid)) }
}

/** What one server holds, for ADR 0020: resident memory along tenants and along memories per tenant, and search time along memories. */
export async function benchServeTenants(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-serve-tenants-'))
  const dataDir = join(root, 'data')
  const server = await startServe(root, ['--port', '0', '--data', dataDir])
  try {
    return { idle_rss_mb: round(rssMb(server.pid)), small_tenants: await manySmallTenants(server), large_tenants: await largeTenants(server, dataDir) }
  } finally {
    await server.stop()
    await rm(root, { recursive: true, force: true })
  }
}
