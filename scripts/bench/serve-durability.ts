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

/** 4 searches and 1 add per tenant, cycled by every client: 80 % search, 20 % add over 2 tenants. Acknowledged ids are collected. */
function mix(acknowledged: Record<Tenant, Set<string>>): autocannon.Request[] {
  return tenants.flatMap((tenant) => {
    const headers = { 'content-type': 'application/json', 'x-tenant-id': tenant }
    const searches = ['deploy pipeline', 'billing owner', 'ci runners', 'on-call rota'].map((query): autocannon.Request => ({
      method: 'POST',
      path: '/v1/tools/memory_search',
      headers,
      body: JSON.stringify({ query }),
    }))
    let written = 0
    const add: autocannon.Request = {
      method: 'POST',
      path: '/v1/tools/memory_add',
      headers,
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ content: `Fact ${++written} of ${tenant}`, layer: 'project' }) }),
      onResponse: (status, body) => {
        if (status === 200) acknowledged[tenant].add((JSON.parse(body) as { memoryId: string }).memoryId)
      },
    }
    return [...searches, add]
  })
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
  const server = await startServe(root, ['--port', '0', '--data', data])
  const statuses: Record<string, number> = {}
  let finish: (result: autocannon.Result) => void = () => undefined
  const done = new Promise<autocannon.Result>((resolve) => (finish = resolve))
  const load = autocannon({ url: server.url, connections, duration: seconds, timeout: 30, requests: mix(acknowledged) }, (_error, result) => finish(result))
  load.on('response', (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1))
  if (crashMidway) {
    await new Promise((resolve) => setTimeout(resolve, (seconds / 2) * 1000))
    await server.crash()
    load.stop()
  }
  const result = await done
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
    statuses,
    ...(await audit(data, acknowledged)),
    restarted_list_status: listed.status,
  }
}

/** 50 clients over 2 tenants, 80 % search and 20 % add, for 60 s; then the same with kill -9 half-way and a restart. */
export async function benchServeDurability(): Promise<Record<string, unknown>> {
  return { connections, seconds, clean: await run(false), killed: await run(true) }
}
