import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { mkBin } from './measure.js'

/** A real MCP client talking to `mk mcp` in a workspace, as an agent's host would, with a private MK_HOME inside it. */
export async function connectMk(cwd: string, bin = mkBin): Promise<Client> {
  return (await connectMkTransport(cwd, bin)).client
}

/** connectMk, with the transport: its pid is the server's, whose peak memory a comparison reads. */
export async function connectMkTransport(cwd: string, bin = mkBin): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--profile', 'main'],
    cwd,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', MK_HOME: join(cwd, '.mk-home') },
  })
  const client = new Client({ name: 'mk-bench', version: '1.0.0' })
  await client.connect(transport)
  return { client, transport }
}

/** Wall time of one awaited call, in ms. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}
