import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { loadWorkspace } from '../../src/config/load.js'
import { runtimeEnvFrom } from '../../src/config/workspace.js'
import { MkError, toErrorObject, type ErrorObject } from '../../src/errors.js'
import type { Mk } from '../../src/hosts/library/index.js'
import { methodName } from '../../src/hosts/library/method-name.js'
import { Resources } from '../../src/tools/context.js'
import type { AnyTool } from '../../src/tools/define.js'
import { dispatch } from '../../src/tools/dispatcher.js'
import { plainStyle } from '../../src/style.js'
import { toolRoutePath } from '../../src/hosts/http/routes.js'
import { mkBin, parseJson, runMk } from '../helpers/mk.js'
import { startServe } from '../helpers/serve.js'

/** What one call gave, in a form the paths can be compared in. */
export type CallResponse = { ok: true; output: unknown } | { ok: false; error: ErrorObject }

export interface Place {
  root: string
  mkHome: string
}

/** Path 1: the dispatcher, in this process. */
export async function callDispatcher(tool: AnyTool, input: unknown, place: Place, resources = new Resources()): Promise<CallResponse> {
  const workspace = await loadWorkspace({ cwd: place.root, env: { MK_HOME: place.mkHome } })
  const outcome = await dispatch(tool, input, { workspace, env: {}, cwd: place.root, runtime: runtimeEnvFrom({}), style: plainStyle, resources })
  return outcome.ok ? { ok: true, output: outcome.output } : { ok: false, error: outcome.error }
}

/** Path 2: the built CLI, `mk tools call <tool> --input <json> --json`. */
export async function callCli(toolName: string, input: unknown, place: Place): Promise<CallResponse & { exitCode: number }> {
  const run = await runMk(['tools', 'call', toolName, '--input', JSON.stringify(input), '--json'], { cwd: place.root, env: { MK_HOME: place.mkHome } })
  const body = parseJson<Record<string, unknown>>(run)
  if (run.exitCode === 2) return { ok: false, error: body as unknown as ErrorObject, exitCode: run.exitCode }
  return { ok: true, output: body, exitCode: run.exitCode }
}

export interface McpConnection {
  client: Client
  call(toolName: string, input: Record<string, unknown>): Promise<CallResponse & { texts: string[] }>
  close(): Promise<void>
}

/** Path 3: a real MCP client talking to the built `mk mcp` over stdio. */
export async function connectMcp(place: Place, args: readonly string[] = [], env: Record<string, string> = {}): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Every tool, unless the test names a profile: mk mcp offers only the core tools by default.
    args: [mkBin, 'mcp', ...(args.includes('--profile') ? [] : ['--profile', 'main']), ...args],
    cwd: place.root,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', MK_HOME: place.mkHome, ...env },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'mk-contract-test', version: '1.0.0' })
  await client.connect(transport)
  await client.listTools()
  return {
    client,
    async call(toolName, input) {
      const result = await client.callTool({ name: toolName, arguments: input })
      const texts = (result.content as { type: string; text?: string }[]).filter((part) => part.type === 'text').map((part) => part.text ?? '')
      if (result.isError === true) return { ok: false, error: JSON.parse(texts[0] ?? '{}') as ErrorObject, texts }
      return { ok: true, output: result.structuredContent, texts }
    },
    close: () => client.close(),
  }
}

/** Path 4: the in-process library, through the tool's camelCase method. */
export async function callLibrary(mk: Mk, toolName: string, input: unknown): Promise<CallResponse> {
  const method = (mk as unknown as Record<string, (input: unknown) => Promise<unknown>>)[methodName(toolName)]
  if (method === undefined) throw new Error(`the library has no method for ${toolName}`)
  try {
    return { ok: true, output: await method(input) }
  } catch (error) {
    if (error instanceof MkError) return { ok: false, error: toErrorObject(error) }
    throw error
  }
}

export interface HttpConnection {
  call(toolName: string, input: Record<string, unknown>): Promise<CallResponse & { status: number }>
  close(): Promise<void>
}

/** Path 5: the built `mk serve` on 127.0.0.1, called with fetch. */
export async function connectHttp(place: Place): Promise<HttpConnection> {
  const server = await startServe({ cwd: place.root, env: { MK_HOME: place.mkHome } })
  return {
    async call(toolName, input) {
      const { status, body } = await server.post(toolRoutePath(toolName), input)
      return status === 200 ? { ok: true, output: body, status } : { ok: false, error: body as unknown as ErrorObject, status }
    },
    close: async () => {
      await server.stop()
    },
  }
}
