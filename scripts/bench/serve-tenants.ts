import { readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { round } from './measure.js'
import { startServe } from './serve.js'

const tenants = 8
const memoriesPerTenant = 20

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

/** The server's resident memory as tenants become active (each adds memories and searches): what one machine holds, for ADR 0020. */
export async function benchServeTenants(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-serve-tenants-'))
  const server = await startServe(root, ['--port', '0', '--data', join(root, 'data')])
  const call = (tenant: string, tool: string, body: unknown) =>
    fetch(`${server.url}/v1/tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-id': tenant },
      body: JSON.stringify(body),
    }).then((response) => response.json())
  try {
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
  } finally {
    await server.stop()
  }
}
