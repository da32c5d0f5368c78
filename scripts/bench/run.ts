import { benchStartup } from './startup.js'
// knowledge check (issue 3)
import { benchCheck } from './check.js'
// memory and search (issue 4)
import { benchMemory } from './memory.js'
import { benchEval } from './eval.js'
// mcp server (issue 6)
import { benchMcp } from './mcp.js'
import { benchMcpSearch } from './mcp-search.js'

/** Each area of mk contributes one benchmark; all print as one JSON document. */
const benchmarks: Record<string, () => Promise<Record<string, unknown>>> = {
  startup: benchStartup,
  // knowledge check (issue 3)
  check: benchCheck,
  // memory and search (issue 4)
  memory: benchMemory,
  eval: benchEval,
  // mcp server (issue 6)
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
