import { benchAgentHooks } from './agent-hooks.js'
import { benchCheck } from './check.js'
import { benchEval } from './eval.js'
import { benchEvalPostgres } from './eval-postgres.js'
import { benchLibrary } from './library.js'
import { benchIndex } from './index.js'
import { benchMcp } from './mcp.js'
import { benchMcpSearch } from './mcp-search.js'
import { benchMaintain } from './maintain.js'
import { benchMemory } from './memory.js'
import { benchPgvector } from './pgvector.js'
import { benchRecall } from './recall.js'
import { benchRules } from './rules.js'
import { benchRulesSelect } from './rules-select.js'
import { benchStartup } from './startup.js'
import { calibrationMs, nodeStartupMs } from './measure.js'
import { benchSync } from './sync.js'
import { benchServe } from './serve.js'
import { benchServeDurability } from './serve-durability.js'
import { benchServePostgres } from './serve-postgres.js'
import { benchServeTenants } from './serve-tenants.js'
import { benchSite } from './site.js'

/** Each area of mk contributes one benchmark; all print as one JSON document. */
const benchmarks: Record<string, () => Promise<Record<string, unknown>>> = {
  startup: benchStartup,
  check: benchCheck,
  memory: benchMemory,
  maintain: benchMaintain,
  sync: benchSync,
  eval: benchEval,
  'eval-postgres': benchEvalPostgres,
  recall: benchRecall,
  rules: benchRules,
  'rules-select': benchRulesSelect,
  mcp: benchMcp,
  'mcp-search': benchMcpSearch,
  serve: benchServe,
  'serve-durability': benchServeDurability,
  'serve-postgres': benchServePostgres,
  pgvector: benchPgvector,
  'serve-tenants': benchServeTenants,
  library: benchLibrary,
  'agent-hooks': benchAgentHooks,
  index: benchIndex,
  site: benchSite,
}

const only = process.argv.slice(2)
if (only[0] === 'compare') {
  const { compare } = await import('./compare.js')
  await compare(only.slice(1))
  process.exit(0)
}
const { cpus, loadavg } = await import('node:os')
/** How fast the machine is at the start and the end: figures from a busy or slow moment read differently. */
const machine = (): Record<string, unknown> => ({
  calibration_ms: calibrationMs(),
  node_startup_ms: nodeStartupMs(),
  load_average: loadavg().map((value) => Math.round(value * 100) / 100),
})
const results: Record<string, unknown> = { node: process.version, cpus: cpus().length, machine_before: machine() }
for (const [name, bench] of Object.entries(benchmarks)) {
  if (only.length > 0 && !only.includes(name)) continue
  process.stderr.write(`bench: ${name}...\n`)
  results[name] = await bench()
}
results.machine_after = machine()
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
