import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { memoryWorkspace } from './mcp-search.js'
import { median, round } from './measure.js'

/** The package's import entry, as `import 'mk-knowledge'` resolves it. */
const entry = new URL('../../library/index.js', import.meta.url).href

/** One process: import the package, open mk, search once (cold), then ten warm searches; prints its timings as JSON. */
const program = `
const started = performance.now()
const { openMk } = await import(${JSON.stringify(entry)})
const imported = performance.now()
const mk = await openMk({ cwd: process.cwd(), env: { MK_HOME: process.env.MK_HOME } })
const opened = performance.now()
await mk.memorySearch({ query: 'staging database' })
const first = performance.now()
const warm = []
for (const query of ['who owns billing', 'how many cores do the runners have', 'when does on-call escalate', 'search latency budget', 'deploy approvals'].flatMap((query) => [query, query + ' now'])) {
  const before = performance.now()
  await mk.memorySearch({ query })
  warm.push(performance.now() - before)
}
await mk.close()
process.stdout.write(JSON.stringify({ import_ms: imported - started, open_ms: opened - imported, first_search_ms: first - opened, warm }))
`

interface Run {
  import_ms: number
  open_ms: number
  first_search_ms: number
  warm: number[]
  process_ms: number
}

function runOnce(root: string): Run {
  const started = performance.now()
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd: root,
    env: { ...process.env, MK_HOME: join(root, '.mk-home') },
    encoding: 'utf8',
  })
  const processMs = performance.now() - started
  if (result.status !== 0) throw new Error(`the library bench process exited ${String(result.status)}: ${result.stderr}`)
  return { ...(JSON.parse(result.stdout) as Omit<Run, 'process_ms'>), process_ms: processMs }
}

/** mk as a library (ADR 0016) over 1,000 memories with the bundled model: what a program pays to import and open it, and a warm search in-process. */
export async function benchLibrary(): Promise<Record<string, unknown>> {
  const root = await memoryWorkspace(1000, 'bundled')
  // The first process brings the index up to date (embeds every memory): not what later imports pay.
  const indexing = runOnce(root)
  const runs = Array.from({ length: 5 }, () => runOnce(root))
  const of = (pick: (run: Run) => number): number => round(median(runs.map(pick)))
  return {
    memories: 1000,
    provider: 'bundled',
    indexing_first_search_ms: round(indexing.first_search_ms),
    import_median_ms: of((run) => run.import_ms),
    open_median_ms: of((run) => run.open_ms),
    first_search_median_ms: of((run) => run.first_search_ms),
    warm_search_median_ms: round(median(runs.flatMap((run) => run.warm))),
    whole_process_median_ms: of((run) => run.process_ms),
    runs: runs.length,
  }
}
