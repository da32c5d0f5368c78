import { benchCheck } from './check.js'
import { benchEval } from './eval.js'
import { benchMcp } from './mcp.js'
import { benchMcpSearch } from './mcp-search.js'
import { benchMemory } from './memory.js'
import { benchStartup } from './startup.js'
import { benchSync } from './sync.js'

/** Each area of mk contributes one benchmark; all print as one JSON document. */
const benchmarks: Record<string, () => Promise<Record<string, unknown>>> = {
  startup: benchStartup,
  check: benchCheck,
  memory: benchMemory,
  sync: benchSync,
  eval: benchEval,
  mcp: benchMcp,
  'mcp-search': benchMcpSearch,
}

const only = process.argv.slice(2)
const results: Record<string, unknown> = { node: process.version, cpus: (await import('node:os')).cpus().length }
for (const [name, bench] of Object.entries(benchmarks)) {
  if (only.length > 0 && !only.includes(name)) continue
  process.stderr.write(`bench: ${name}...\n`)
  results[name] = await bench()
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
