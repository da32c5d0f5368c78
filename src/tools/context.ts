import type { RuntimeEnv, Workspace } from '../config/workspace.js'
import type { Store } from '../stores/store.js'
import type { Style } from '../style.js'

export interface ProgressEvent {
  phase: string
  done: number
  total: number | undefined
  message?: string
}

/**
 * Long-lived resources (an open index, a loaded model) shared by every call in
 * one process: a CLI run makes one per command, the MCP server keeps one for its life.
 */
export class Resources {
  private readonly pending = new Map<string, Promise<unknown>>()
  private readonly closers: (() => Promise<void> | void)[] = []

  get<T>(key: string, create: () => Promise<T>, close?: (value: T) => Promise<void> | void): Promise<T> {
    const existing = this.pending.get(key)
    if (existing !== undefined) return existing as Promise<T>
    const created = create()
    this.pending.set(key, created)
    created.then(
      (value) => {
        if (close !== undefined) this.closers.push(() => close(value))
      },
      () => this.pending.delete(key),
    )
    return created
  }

  async closeAll(): Promise<void> {
    const closers = this.closers.splice(0)
    this.pending.clear()
    for (const close of closers.reverse()) await close()
  }
}

/** An MCP session that offers only some tools (the core profile) and can offer more of the registered ones. */
export interface ToolSession {
  /** The names of the tools the session offers now. */
  offered(): readonly string[]
  /** Offers these tools too and tells the client its tool list changed; returns the names that were not offered yet. */
  offer(names: readonly string[]): string[]
}

export interface ToolContext {
  workspace: Workspace
  /**
   * The environment the call runs in, as its host was given it: the CLI's process, the MCP
   * server's start, the team server's operator settings, what openMk was given. Tools read
   * this, never the process environment: one server process serves many tenants.
   */
  env: Readonly<Record<string, string | undefined>>
  /** The folder relative paths in the call resolve against: where mk was started, or the tenant's workspace on a server. */
  cwd: string
  runtime: RuntimeEnv
  style: Style
  resources: Resources
  /** Where the tenant's memories, their history, the index and the ledgers are kept: tools reach data only through it. */
  store: Store
  /** Aborted when the call times out. */
  signal: AbortSignal
  requestId: string
  /** Warnings that do not stop the call (a skipped corrupt file); shown on stderr or in the MCP result. */
  warn(message: string): void
  progress?: (event: ProgressEvent) => void
  /** Asks a human to approve an elevated call; absent where nobody can be asked. */
  approve?: (question: string) => Promise<boolean>
  /** Present in an MCP session that offers only some tools; elsewhere every registered tool is callable. */
  toolSession?: ToolSession
}
