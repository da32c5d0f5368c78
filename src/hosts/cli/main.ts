import { execute } from '@oclif/core/execute'
import { z } from 'zod'
import { invocationOf } from './argv.js'
import { commandOverview } from './overview.js'
import { writeJson } from './render.js'

/** Resolves once everything written to the stream before it has been handed to the system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()))
}

/**
 * An error nothing caught is a bug in mk. Node's own report of it starts with the line of source
 * it was thrown from: in the bundle, a line of minified code thousands of characters long. It is
 * reported in mk's error shape instead, on stderr (stdout may be an MCP client's channel).
 */
function failWithoutSource(error: unknown): never {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  process.stderr.write(`Error [INTERNAL_ERROR] ${message}\nhint: this is a bug in mk: please report it with the command you ran and this message\n`)
  process.exit(2)
}

/** Commands that stay up and parse many inputs, where zod's compiled parsers pay for their compilation. */
const longRunningCommands: ReadonlySet<string> = new Set(['serve', 'mcp'])

/**
 * What bin/run.js runs once the bundle is loaded (src/hosts/cli/load-bundle.ts).
 * oclif is loaded through this module so that the bundle holds oclif beside
 * the commands, instead of a hundred CommonJS files resolved and read one by one.
 *
 * Once the command has finished and its output is written, the process ends
 * at once. Left to itself, Node waits at exit for V8's background work
 * (optimising compilations, heap sweeping) that nothing needs any more: 15-20 ms
 * after a large `mk knowledge check`. Commands never leave work running after
 * they return; the MCP server returns only when its client disconnects.
 */
export async function run(dir: string): Promise<never> {
  process.on('uncaughtException', failWithoutSource)
  process.on('unhandledRejection', failWithoutSource)
  const invocation = invocationOf(process.argv.slice(2))
  // zod compiles a parser for each object schema the first time it parses one (new Function, which
  // the bundle's code cache cannot hold): 3-5 ms of `mk memory add`, whose schemas each parse once.
  if (invocation.kind === 'overview' || !longRunningCommands.has(invocation.argv[0] ?? '')) z.config({ jitless: true })
  if (invocation.kind === 'overview') writeJson(process.stdout, await commandOverview(dir))
  else await execute({ dir, args: invocation.argv })
  await Promise.all([drained(process.stdout), drained(process.stderr)])
  process.exit()
}
