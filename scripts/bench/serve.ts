import { spawn } from 'node:child_process'
import autocannon from 'autocannon'
import { memoryWorkspace } from './mcp-search.js'
import { mkBin, round, timeMk } from './measure.js'

const memories = 1000
const seconds = 10
const connections = 10

export interface Started {
  url: string
  pid: number
  stop(): Promise<void>
  /** kill -9: no shutdown at all. */
  crash(): Promise<void>
}

export async function startServe(root: string, args: readonly string[] = ['--port', '0'], env: NodeJS.ProcessEnv = {}, bin = mkBin): Promise<Started> {
  const child = spawn(process.execPath, [bin, 'serve', '--json', ...args], {
    cwd: root,
    env: { ...process.env, MK_HOME: `${root}/home`, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let stdout = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      try {
        resolve((JSON.parse(stdout) as { url: string }).url)
      } catch {
        // The start line is not complete yet.
      }
    })
    child.once('exit', (code) => reject(new Error(`mk serve exited with ${code} before it started`)))
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
    crash: async () => {
      child.kill('SIGKILL')
      await exited
    },
  }
}

export async function ready(url: string): Promise<void> {
  while ((await fetch(`${url}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Whole `mk memory search` processes in the workspace: on their own, then through a warm `mk serve --socket .mk/serve.sock`. */
async function searchThroughSocket(root: string): Promise<Record<string, unknown>> {
  const args = ['memory', 'search', 'which database is read-only', '--json']
  const env = { MK_HOME: `${root}/home` }
  const alone = timeMk(args, { cwd: root, env })
  const server = await startServe(root, ['--socket', '.mk/serve.sock'])
  try {
    // The first call through the socket opens the index and loads the model in the server.
    const warm = timeMk(args, { cwd: root, env, warmup: 2, budgetMs: 150 })
    return { alone_ms: alone.median_ms, through_socket_ms: warm.median_ms, budget_ms: warm.budget_ms, within_budget: warm.within_budget, runs: warm.runs }
  } finally {
    await server.stop()
  }
}

const json = { 'content-type': 'application/json' }
export const search = (query: string): autocannon.Request => ({
  method: 'POST',
  path: '/v1/tools/memory_search',
  headers: json,
  body: JSON.stringify({ query }),
})
const add = {
  method: 'POST' as const,
  path: '/v1/tools/memory_add',
  headers: json,
  body: JSON.stringify({ content: 'The deploy pipeline needs two approvals', layer: 'project' }),
}

export async function load(url: string, requests: autocannon.Request[], clients = connections, duration = seconds): Promise<Record<string, unknown>> {
  const result = await autocannon({ url, connections: clients, duration, requests })
  return {
    requests_per_s: round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors,
    non_2xx: result.non2xx,
  }
}

const quotaRps = 20
const quotaSeconds = 5

/** A tenant hammered by 5 clients under a recall quota of 20/s (burst 1): the rate it is admitted at, which issue 17 wants within 10 %. */
async function admittedRate(root: string): Promise<Record<string, unknown>> {
  const server = await startServe(root, ['--port', '0'], { MK_TENANT_QUOTAS: JSON.stringify({ recall: { rps: quotaRps, burst: 1 } }) })
  try {
    await ready(server.url)
    const statuses: Record<number, number> = {}
    await new Promise<void>((resolve) => {
      const load = autocannon(
        {
          url: server.url,
          connections: 5,
          duration: quotaSeconds,
          requests: [{ method: 'POST', path: '/v1/tools/memory_list', headers: json, body: '{}' }],
        },
        () => resolve(),
      )
      load.on('response', (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1))
    })
    const admitted = (statuses[200] ?? 0) / quotaSeconds
    return {
      configured_rps: quotaRps,
      admitted_rps: round(admitted),
      refused_429: statuses[429] ?? 0,
      off_by_percent: round((100 * (admitted - quotaRps)) / quotaRps),
    }
  } finally {
    await server.stop()
  }
}

/** memory_search over HTTP against a warm `mk serve` at 1,000 memories: throughput and latency, then an 80/20 search/add mix. */
export async function benchServe(): Promise<Record<string, unknown>> {
  const root = await memoryWorkspace(memories, 'bundled')
  const server = await startServe(root)
  try {
    await ready(server.url)
    const queries = ['which database is read-only', 'who owns billing', 'how many cores do the runners have', 'when does on-call escalate']
    // One client: the latency of a warm search with nothing queued before it.
    const oneClient = await load(server.url, queries.map(search), 1)
    const searchOnly = await load(server.url, queries.map(search))
    const mixed = await load(server.url, [...queries.map(search), add])
    await server.stop()
    const cli = await searchThroughSocket(root)
    const quota = await admittedRate(root)
    return {
      memories,
      seconds,
      memory_search_1_client: oneClient,
      connections,
      memory_search: searchOnly,
      search_80_add_20: mixed,
      cli_memory_search: cli,
      recall_quota: quota,
    }
  } finally {
    await server.stop()
  }
}
