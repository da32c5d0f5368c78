import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { round } from './measure.js'
import { startServe } from './serve.js'

const seconds = 60
const connections = 50
const tenants = ['team-a', 'team-b'] as const
type Tenant = (typeof tenants)[number]

/** Each client has one request in flight, so the time from its set-up to its response is that request's latency. */
type Timed = { sentAt?: number }
const routes = ['memory_search', 'memory_add'] as const
type Route = (typeof routes)[number]

function timed(route: Route, latencies: Record<Route, number[]>, request: autocannon.Request, onOk?: (body: string) => void): autocannon.Request {
  return {
    ...request,
    setupRequest: (sent, context: Timed) => {
      context.sentAt = performance.now()
      return request.setupRequest === undefined || typeof request.setupRequest === 'string' ? sent : request.setupRequest(sent, context)
    },
    onResponse: (status, body, context: Timed) => {
      if (context.sentAt !== undefined) latencies[route].push(performance.now() - context.sentAt)
      if (status === 200) onOk?.(body)
    },
  }
}

/** 4 searches and 1 add per tenant, cycled by every client: 80 % search, 20 % add over 2 tenants. Acknowledged ids and latencies per route are collected. */
function mix(acknowledged: Record<Tenant, Set<string>>, latencies: Record<Route, number[]>): autocannon.Request[] {
  return tenants.flatMap((tenant) => {
    const headers = { 'content-type': 'application/json', 'x-tenant-id': tenant }
    const searches = ['deploy pipeline', 'billing owner', 'ci runners', 'on-call rota'].map((query) =>
      timed('memory_search', latencies, { method: 'POST', path: '/v1/tools/memory_search', headers, body: JSON.stringify({ query }) }),
    )
    let written = 0
    const add = timed(
      'memory_add',
      latencies,
      {
        method: 'POST',
        path: '/v1/tools/memory_add',
        headers,
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ content: `Fact ${++written} of ${tenant}`, layer: 'project' }) }),
      },
      (body) => acknowledged[tenant].add((JSON.parse(body) as { memoryId: string }).memoryId),
    )
    return [...searches, add]
  })
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? 0 : round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0)
}

function perRoute(latencies: Record<Route, number[]>, elapsedS: number): Record<string, unknown> {
  return Object.fromEntries(
    routes.map((route) => {
      const sorted = [...latencies[route]].sort((a, b) => a - b)
      return [
        route,
        { requests: sorted.length, requests_per_s: round(sorted.length / elapsedS), p50_ms: percentile(sorted, 0.5), p99_ms: percentile(sorted, 0.99) },
      ]
    }),
  )
}

async function memoryFiles(folder: string): Promise<Set<string>> {
  const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[])
  return new Set(entries.map((entry) => /(mem_[0-9A-Z]{26})\.md$/.exec(entry)?.[1]).filter((id): id is string => id !== undefined))
}

/** Every acknowledged write is a file of its own tenant after the run (and after a crash and restart), none in the other's. */
async function audit(data: string, acknowledged: Record<Tenant, Set<string>>): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {}
  for (const tenant of tenants) {
    const files = await memoryFiles(join(data, 'tenants', tenant))
    const other = tenants.find((candidate) => candidate !== tenant) ?? tenant
    result[tenant] = {
      acknowledged: acknowledged[tenant].size,
      missing: [...acknowledged[tenant]].filter((id) => !files.has(id)).length,
      in_other_tenant: [...acknowledged[other]].filter((id) => files.has(id)).length,
    }
  }
  return result
}

async function run(crashMidway: boolean): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-serve-durability-'))
  const data = join(root, 'data')
  const acknowledged: Record<Tenant, Set<string>> = { 'team-a': new Set(), 'team-b': new Set() }
  const latencies: Record<Route, number[]> = { memory_search: [], memory_add: [] }
  const server = await startServe(root, ['--port', '0', '--data', data])
  const statuses: Record<string, number> = {}
  let finish: (result: autocannon.Result) => void = () => undefined
  const done = new Promise<autocannon.Result>((resolve) => (finish = resolve))
  const started = performance.now()
  const load = autocannon({ url: server.url, connections, duration: seconds, timeout: 30, requests: mix(acknowledged, latencies) }, (_error, result) =>
    finish(result),
  )
  load.on('response', (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1))
  if (crashMidway) {
    await new Promise((resolve) => setTimeout(resolve, (seconds / 2) * 1000))
    await server.crash()
    load.stop()
  }
  const result = await done
  const elapsedS = (performance.now() - started) / 1000
  if (!crashMidway) await server.stop()
  // A restarted server must open every tenant's store again.
  const restarted = await startServe(root, ['--port', '0', '--data', data])
  const listed = await fetch(`${restarted.url}/v1/tools/memory_list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant-id': 'team-a' },
    body: '{}',
  })
  await restarted.stop()
  return {
    crash_midway: crashMidway,
    requests_per_s: round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    per_route: perRoute(latencies, elapsedS),
    statuses,
    ...(await audit(data, acknowledged)),
    restarted_list_status: listed.status,
  }
}

/** 50 clients over 2 tenants, 80 % search and 20 % add, for 60 s; then the same with kill -9 half-way and a restart. */
export async function benchServeDurability(): Promise<Record<string, unknown>> {
  return { connections, seconds, clean: await run(false), killed: await run(true) }
}
