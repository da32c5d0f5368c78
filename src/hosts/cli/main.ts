import { execute } from '@oclif/core/execute'
import { invocationOf } from './argv.js'
import { commandOverview } from './overview.js'
import { writeJson } from './render.js'

/** Resolves once everything written to the stream before it has been handed to the system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()))
}

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
  const invocation = invocationOf(process.argv.slice(2))
  if (invocation.kind === 'overview') writeJson(process.stdout, await commandOverview(dir))
  else await execute({ dir, args: invocation.argv })
  await Promise.all([drained(process.stdout), drained(process.stderr)])
  process.exit()
}
