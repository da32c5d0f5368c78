import type { Artifact } from '../../tools/artifacts.js'
/** What the MCP server needs to know about one tool; mk's tool layer provides these. */
export interface McpToolSpec {
  name: string
  title: string
  description: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations: {
    title: string
    readOnlyHint: boolean
    destructiveHint: boolean
    idempotentHint: boolean
    openWorldHint: boolean
  }
}

export interface McpProgress {
  progress: number
  total?: number
  message?: string
}

/** What the connected client can do for one call. */
export interface McpCallSession {
  /** Present when the client supports elicitation: asks its user a yes/no question. */
  approve?: (question: string) => Promise<boolean>
  /** Present when the request carried a progress token. */
  progress?: (event: McpProgress) => void
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal
}

export type McpCallResult =
  /** `artifacts`: what the call produced (seed 001), sent as the result's `_meta.artifacts`. */
  { isError: false; structuredContent: Record<string, unknown>; texts: string[]; artifacts?: readonly Artifact[] } | { isError: true; texts: string[] }

export interface McpResource {
  uri: string
  name: string
  title: string
  description?: string
  mimeType: string
}

export interface McpResourceTemplate {
  uriTemplate: string
  name: string
  title: string
  description: string
  mimeType: string
}

export interface McpResourceText {
  uri: string
  mimeType: string
  text: string
}

export interface McpPromptSpec {
  name: string
  title: string
  description: string
  arguments: { name: string; description: string; required: boolean }[]
}

export interface McpPromptMessage {
  role: 'user' | 'assistant'
  content: { type: 'text'; text: string }
}

/** A failure the server reports as a JSON-RPC error; `notFound` becomes the spec's "resource not found". */
export class McpHostError extends Error {
  constructor(
    message: string,
    readonly kind: 'notFound' | 'invalidParams' | 'internal',
  ) {
    super(message)
    this.name = 'McpHostError'
  }
}

/** The tools, resources and prompts a server offers and how to serve them; the server itself knows nothing about mk. */
export interface McpHost {
  /** The tools offered now: a session may load more (tools_search). */
  readonly tools: readonly McpToolSpec[]
  /** Called after the offered tools changed, so the server can tell the client to list them again. */
  onToolsChanged(listener: () => void): void
  call(name: string, args: Record<string, unknown>, session: McpCallSession): Promise<McpCallResult>
  resourceTemplates: readonly McpResourceTemplate[]
  listResources(): Promise<McpResource[]>
  /** Throws McpHostError (notFound) for a URI that names nothing. */
  readResource(uri: string): Promise<McpResourceText>
  prompts: readonly McpPromptSpec[]
  /** Throws McpHostError for an unknown prompt or missing arguments. */
  getPrompt(name: string, args: Record<string, string>): Promise<{ description: string; messages: McpPromptMessage[] }>
  /** Waits for the calls still running, then releases what the tools opened. */
  close(): Promise<void>
}
