/** What the MCP server needs to know about one tool; mk's tool layer provides these. */
export interface McpToolSpec {
  name: string
  title: string
  description: string
  inputSchema: Record<string, unknown>
  outputSchema: Record<string, unknown>
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
  | { isError: false; structuredContent: Record<string, unknown>; texts: string[] }
  | { isError: true; texts: string[] }

/** The tools a server offers and how to run them; the server itself knows nothing about mk. */
export interface McpHost {
  tools: readonly McpToolSpec[]
  call(name: string, args: Record<string, unknown>, session: McpCallSession): Promise<McpCallResult>
  /** Waits for the calls still running, then releases what the tools opened. */
  close(): Promise<void>
}
