import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { importPackage } from '../../import-package.js'
import { McpHostError, type McpCallResult, type McpCallSession, type McpHost } from './host.js'
import { StdioLineTransport } from './stdio-transport.js'

export interface ServerIdentity {
  name: string
  version: string
  /** Shown to the model by clients that support server instructions. */
  instructions: string
}

function toCallToolResult(result: McpCallResult): CallToolResult {
  const content = result.texts.map((text) => ({ type: 'text' as const, text }))
  if (result.isError) return { content, isError: true }
  return {
    content,
    structuredContent: result.structuredContent,
    isError: false,
    ...(result.artifacts === undefined ? {} : { _meta: { artifacts: [...result.artifacts] } }),
  }
}

const approvalSchema = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve', description: 'Allow this one call' } },
  required: ['approve'],
}

/** An MCP server offering the host's tools. The SDK is loaded here, on demand, so no other command pays for it. */
export async function createMcpServer(host: McpHost, identity: ServerIdentity): Promise<Server> {
  const [
    { Server },
    {
      CallToolRequestSchema,
      ListToolsRequestSchema,
      ListResourcesRequestSchema,
      ListResourceTemplatesRequestSchema,
      ReadResourceRequestSchema,
      ListPromptsRequestSchema,
      GetPromptRequestSchema,
      McpError,
      ErrorCode,
    },
  ] = await Promise.all([
    importPackage<typeof import('@modelcontextprotocol/sdk/server/index.js')>('@modelcontextprotocol/sdk/server/index.js'),
    importPackage<typeof import('@modelcontextprotocol/sdk/types.js')>('@modelcontextprotocol/sdk/types.js'),
  ])
  const server = new Server(
    { name: identity.name, version: identity.version },
    { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} }, instructions: identity.instructions },
  )
  // A tool loaded with tools_search: the client lists the tools again and sees it.
  host.onToolsChanged(() => void server.sendToolListChanged().catch(() => undefined))
  // The spec's code for "resource not found" (the SDK has no constant for it).
  const resourceNotFound = -32002
  const asMcpError = (error: unknown, data?: Record<string, unknown>): unknown => {
    if (!(error instanceof McpHostError)) return error
    const code = error.kind === 'notFound' ? resourceNotFound : error.kind === 'invalidParams' ? ErrorCode.InvalidParams : ErrorCode.InternalError
    return new McpError(code, error.message, data)
  }

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...host.tools] }))
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await host.listResources() }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...host.resourceTemplates] }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params
    return { contents: [await host.readResource(uri).catch((error: unknown) => Promise.reject(asMcpError(error, { uri })))] }
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [...host.prompts] }))
  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    host.getPrompt(request.params.name, request.params.arguments ?? {}).catch((error: unknown) => Promise.reject(asMcpError(error))),
  )

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const session: McpCallSession = { signal: extra.signal }
    if (server.getClientCapabilities()?.elicitation !== undefined) {
      session.approve = async (question) => {
        // No answer (the client failed or timed out asking) is no approval; a cancelled call stays cancelled.
        const answer = await server
          .elicitInput({ mode: 'form', message: question, requestedSchema: approvalSchema }, { signal: extra.signal })
          .catch((error: unknown) => {
            if (extra.signal.aborted) throw error
            return undefined
          })
        return answer?.action === 'accept' && answer.content?.approve === true
      }
    }
    const progressToken = request.params._meta?.progressToken
    if (progressToken !== undefined) {
      session.progress = (event) => {
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...event } })
      }
    }
    return toCallToolResult(await host.call(request.params.name, request.params.arguments ?? {}, session))
  })

  return server
}

/** How long the last replies may wait for a client that no longer reads them, after it closed stdin. */
const replyPatienceMs = 5_000

/**
 * Serve until the client goes away (stdin ends) or the process is told to stop; then release the
 * host's resources and deliver the replies still buffered, as long as the client keeps reading.
 */
export async function serveStdio(host: McpHost, identity: ServerIdentity): Promise<void> {
  const { JSONRPCMessageSchema } = await importPackage<typeof import('@modelcontextprotocol/sdk/types.js')>('@modelcontextprotocol/sdk/types.js')
  const server = await createMcpServer(host, identity)
  const transport = new StdioLineTransport(process.stdin, process.stdout, {
    isMessage: (value): value is JSONRPCMessage => JSONRPCMessageSchema.safeParse(value).success,
  })
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve
  })
  const stop = (): void => void server.close()
  process.stdin.once('end', stop)
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  await server.connect(transport)
  await closed
  await host.close()
  if (await transport.flush(replyPatienceMs)) return
  // The client went away without reading its last replies. Node cannot close stdout, and waiting
  // for it to drain would wait forever: the replies are dropped and the process ends normally.
  process.stderr.write(`mk mcp: the client stopped reading; ${process.stdout.writableLength} bytes of replies were not delivered\n`, () => process.exit(0))
  // Never settles: the process ends in the write's callback, before the command could wait on stdout.
  await new Promise<never>(() => undefined)
}
