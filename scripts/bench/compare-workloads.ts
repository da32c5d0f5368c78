import { spawnSync } from 'node:child_process'
import { appendFileSync, readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchGit, clearScanCache } from './check-scale.js'
import { makeCheckWorkspace } from './check-workspace.js'
import type { MkBuild } from './compare-build.js'
import { connectMkTransport, timed } from './mcp-client.js'
import { benchQuestion, memoryWorkspace, warmQueries, type BenchTexts } from './mcp-search.js'
import { cpuMsOf } from './measure.js'
import { load, ready, search, startServe } from './serve.js'

/** One measurement of one side: a time or a rate, with the peak memory and CPU time of the process when known. */
export interface Sample {
  value: number
  peakKb?: number
  cpuMs?: number
  /** Whether a search returned any result: a search that returns nothing skips reading and packing rows. */
  answered?: boolean
}

/** The results a memory_search returned, from its structured output (0 when it has none). */
function resultCount(output: unknown): number {
  const results = typeof output === 'object' && output !== null ? (output as { results?: unknown }).results : undefined
  return Array.isArray(results) ? results.length : 0
}

/** The samples of one figure, old and new, taken in turn: old[i] and new[i] are a pair. */
export interface Figure {
  unit: 'ms' | 'req/s'
  old: Sample[]
  new: Sample[]
}

export interface WorkloadOptions {
  builds: { old: MkBuild; new: MkBuild }
  rounds: number
  /** Embedding provider of the search workspaces: bundled (hybrid search, as users run it) or none (full text). */
  provider: 'bundled' | 'none'
  /** The memories the search workload searches, and the questions it asks of them. */
  texts: BenchTexts
  /** Seconds of load per round of the server workload. */
  serveSeconds: number
}

export interface Workload {
  /** Sizes measured without --sizes (files for the check, memories for search and the server). */
  defaultSizes: readonly number[]
  /** Whether --sizes applies. */
  sized: boolean
  run(size: number, options: WorkloadOptions): Promise<Record<string, Figure>>
}

const sides = ['old', 'new'] as const
type Side = (typeof sides)[number]

/** A whole `mk` process of one build: wall time, and through GNU time its peak RSS and CPU time. */
function runMk(build: MkBuild, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Sample {
  const time = '/usr/bin/time'
  const withTime = spawnSync(time, ['--version'], { encoding: 'utf8' }).error === undefined
  const command = withTime ? time : process.execPath
  const commandArgs = withTime ? ['-f', '%M %U %S', process.execPath, build.bin, ...args] : [build.bin, ...args]
  const started = performance.now()
  const result = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 256 * 1024 * 1024 })
  const value = performance.now() - started
  if (result.status !== 0 && result.status !== 1) throw new Error(`${build.label}: mk ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`)
  if (!withTime) return { value }
  const [peakKb, user, system] = (result.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number)
  return { value, peakKb, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000 }
}

/** The peak RSS of a running process so far (Linux), for long-lived servers. */
function peakKbOf(pid: number | null | undefined): number | undefined {
  if (pid === null || pid === undefined) return undefined
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmHWM:'))
    return line === undefined ? undefined : Number(line.replace(/\D+/g, ''))
  } catch {
    return undefined
  }
}

const emptyFigure = (unit: Figure['unit']): Figure => ({ unit, old: [], new: [] })

/**
 * Copies of one workspace, one per side, in a scratch directory of their own (`dir`, the only
 * thing to remove afterwards): each build keeps its own caches and index, in the format it writes.
 */
async function perSide(root: string): Promise<Record<Side, string> & { dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mk-bench-compare-sides-'))
  const copies = { dir, old: join(dir, 'old'), new: join(dir, 'new') }
  for (const side of sides) await cp(root, copies[side], { recursive: true, verbatimSymlinks: true })
  return copies
}

async function inScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'mk-bench-compare-'))
  try {
    return await work(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2100))

/** `mk knowledge check` with no caches (cold), with the caches of an unchanged tree (warm), and the pre-commit hook with one file staged. */
const check: Workload = {
  defaultSizes: [2000, 10_000, 50_000],
  sized: true,
  async run(files, { builds, rounds }) {
    const { root } = await makeCheckWorkspace(files)
    const workspaces = await (async () => {
      try {
        benchGit(root, 'init', '-q')
        benchGit(root, 'add', '-A')
        benchGit(root, 'commit', '-qm', 'bench')
        return await perSide(root)
      } finally {
        await rm(root, { recursive: true, force: true })
      }
    })()
    try {
      const figures = { [`check_cold_${files}`]: emptyFigure('ms'), [`check_warm_${files}`]: emptyFigure('ms'), [`staged_hook_${files}`]: emptyFigure('ms') }
      const cold = figures[`check_cold_${files}`] as Figure
      const warm = figures[`check_warm_${files}`] as Figure
      const staged = figures[`staged_hook_${files}`] as Figure
      // Untimed: the files were just written; the first run also waits for the system to settle them.
      for (const side of sides) runMk(builds[side], ['knowledge', 'check'], workspaces[side])
      for (let round = 0; round < rounds; round++) {
        for (const side of sides) {
          clearScanCache(workspaces[side])
          cold[side].push(runMk(builds[side], ['knowledge', 'check'], workspaces[side]))
        }
      }
      // The caches trust stat data only of files older than two seconds.
      await settle()
      for (const side of sides) runMk(builds[side], ['knowledge', 'check'], workspaces[side])
      for (let round = 0; round < rounds; round++) {
        for (const side of sides) warm[side].push(runMk(builds[side], ['knowledge', 'check'], workspaces[side]))
      }
      for (const side of sides) runMk(builds[side], ['knowledge', 'check', '--staged'], workspaces[side])
      let edit = 0
      for (let round = 0; round < rounds; round++) {
        for (const side of sides) {
          appendFileSync(join(workspaces[side], 'src/module0/file0.ts'), `  // edit ${++edit}\n`)
          benchGit(workspaces[side], 'add', 'src/module0/file0.ts')
          staged[side].push(runMk(builds[side], ['knowledge', 'check', '--staged'], workspaces[side]))
        }
      }
      return figures
    } finally {
      await rm(workspaces.dir, { recursive: true, force: true })
    }
  },
}

/**
 * `mk memory add` as a whole process, each build in an empty workspace of its own: in one shared
 * workspace each build found the other's index version and memories, and rebuilt (CPU doubled).
 */
const memoryAdd: Workload = {
  defaultSizes: [0],
  sized: false,
  async run(_, { builds, rounds }) {
    return inScratch(async (dir) => {
      const figure = emptyFigure('ms')
      for (const side of sides) await mkdir(join(dir, `workspace-${side}`))
      for (let round = 0; round <= rounds; round++) {
        for (const side of sides) {
          const sample = runMk(builds[side], ['memory', 'add', `bench fact number ${round} of ${side} ${Date.now()}`], join(dir, `workspace-${side}`), {
            MK_HOME: join(dir, `home-${side}`),
          })
          // The first round creates the workspace's folders and index.
          if (round > 0) figure[side].push(sample)
        }
      }
      return { memory_add: figure }
    })
  },
}

/**
 * Search at a number of memories: whole `mk memory search` processes (cold) and memory_search
 * calls inside one long-lived `mk mcp` per build (warm, as an agent's host keeps it), every
 * question a new one. Both servers run at once and answer in turn.
 */
const searchWorkload: Workload = {
  defaultSizes: [1000, 10_000],
  sized: true,
  async run(memories, { builds, rounds, provider, texts }) {
    const root = await memoryWorkspace(memories, provider, texts)
    const workspaces = await perSide(root)
    await rm(root, { recursive: true, force: true })
    try {
      const figures = { [`search_cold_${memories}`]: emptyFigure('ms'), [`search_warm_${memories}`]: emptyFigure('ms') }
      const cold = figures[`search_cold_${memories}`] as Figure
      const warm = figures[`search_warm_${memories}`] as Figure
      for (const side of sides) {
        const env = { MK_HOME: join(workspaces[side], '.mk-home') }
        process.stderr.write(`compare: indexing ${memories} memories for ${side} (${provider})\n`)
        runMk(builds[side], ['index', 'update'], workspaces[side], env)
      }
      for (let round = 0; round < rounds; round++) {
        for (const side of sides) {
          cold[side].push(
            runMk(builds[side], ['memory', 'search', benchQuestion(round, texts)], workspaces[side], { MK_HOME: join(workspaces[side], '.mk-home') }),
          )
        }
      }
      const servers = {
        old: await connectMkTransport(workspaces.old, builds.old.bin),
        new: await connectMkTransport(workspaces.new, builds.new.bin),
      }
      try {
        const ask = async (side: Side, query: string): Promise<Sample> => {
          let answered = false
          const value = await timed(async () => {
            const result = await servers[side].client.callTool({ name: 'memory_search', arguments: { query } }, undefined, { timeout: 1_800_000 })
            answered = resultCount(result.structuredContent) > 0
          })
          return { value, answered }
        }
        for (const side of sides) await ask(side, 'staging database')
        const calls = Math.max(30, rounds * 6)
        const cpuBefore = { old: cpuMsOf(servers.old.transport.pid), new: cpuMsOf(servers.new.transport.pid) }
        for (let run = 0; run < calls; run++) {
          for (const side of sides) warm[side].push(await ask(side, benchQuestion(rounds + run, texts)))
        }
        for (const side of sides) {
          // A call takes less than a clock tick of CPU: the server's CPU time over all calls, per call, on every sample.
          const before = cpuBefore[side]
          const after = cpuMsOf(servers[side].transport.pid)
          const peakKb = peakKbOf(servers[side].transport.pid)
          warm[side] = warm[side].map((sample) => ({
            ...sample,
            ...(before === undefined || after === undefined ? {} : { cpuMs: (after - before) / calls }),
            ...(peakKb === undefined ? {} : { peakKb }),
          }))
        }
      } finally {
        for (const side of sides) await servers[side].client.close()
      }
      return figures
    } finally {
      await rm(workspaces.dir, { recursive: true, force: true })
    }
  },
}

/** memory_search over HTTP against a warm `mk serve` of each build with 10 clients, a round of load each in turn. */
const serve: Workload = {
  defaultSizes: [1000],
  sized: true,
  async run(memories, { builds, rounds, provider, serveSeconds }) {
    const root = await memoryWorkspace(memories, provider)
    const workspaces = await perSide(root)
    await rm(root, { recursive: true, force: true })
    try {
      const latency = emptyFigure('ms')
      const throughput = emptyFigure('req/s')
      const requests = warmQueries.map(search)
      for (let round = 0; round < rounds; round++) {
        for (const side of sides) {
          const server = await startServe(workspaces[side], ['--port', '0'], {}, builds[side].bin)
          try {
            await ready(server.url)
            // Warms the server: opens the index, embeds the memories, loads the model.
            await fetch(`${server.url}/v1/tools/memory_search`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"query":"warm up"}',
            })
            const result = (await load(server.url, requests, 10, serveSeconds)) as { requests_per_s: number; p50_ms: number }
            const peakKb = peakKbOf(server.pid)
            latency[side].push({ value: result.p50_ms, ...(peakKb === undefined ? {} : { peakKb }) })
            throughput[side].push({ value: result.requests_per_s })
          } finally {
            await server.stop()
          }
        }
      }
      return { [`serve_search_p50_${memories}`]: latency, [`serve_search_throughput_${memories}`]: throughput }
    } finally {
      await rm(workspaces.dir, { recursive: true, force: true })
    }
  },
}

export const workloads: Record<string, Workload> = { check, 'memory-add': memoryAdd, search: searchWorkload, serve }
