import type { z } from 'zod'
import type { typedTools } from '../../tools/registry.js'
import type { MethodName } from './method-name.js'

type RegisteredTool = (typeof typedTools)[number]

export interface OpenMkOptions {
  /** The directory mk runs in, as `mk --cwd`: the workspace is found from here upwards. */
  cwd: string
  /** The environment mk reads (MK_HOME, MK_AGENT_ID, MK_READ_ONLY, …); process.env when absent. */
  env?: Record<string, string | undefined>
  /** Refuse every tool above the read_only tier, as MK_READ_ONLY=1 does. */
  readOnly?: boolean
  /** Asked before an elevated tool runs; without it elevated tools are refused (FORBIDDEN). */
  approve?: (question: string) => Promise<boolean>
  /** Warnings that do not stop a call (a skipped corrupt file); dropped when absent. */
  warn?: (message: string) => void
}

export interface CallOptions {
  /** Abandons the call: it fails with TIMEOUT (retryable) when aborted. */
  signal?: AbortSignal
}

/** Input may be left out when the tool needs no field. */
type MethodArguments<Input> = Record<never, never> extends Input ? [input?: Input, options?: CallOptions] : [input: Input, options?: CallOptions]

/**
 * One method per registered tool, derived from the registry's own types: a tool
 * added to the registry is a method here, with its input and output schemas' types.
 */
export type MkTools = {
  [Tool in RegisteredTool as MethodName<Tool['name']>]: (...args: MethodArguments<z.input<Tool['input']>>) => Promise<z.output<Tool['output']>>
}

/** mk in this process: every tool as a method, through the same dispatcher as the CLI and MCP. */
export interface Mk extends MkTools {
  /**
   * A tool by its registry name, for code that holds names rather than methods
   * (the definitions of `mk tools export --format langchain`). Unknown names fail with NOT_FOUND.
   */
  call(toolName: string, input?: unknown, options?: CallOptions): Promise<unknown>
  /** Waits for the calls still running, then closes the index and what else the tools opened. */
  close(): Promise<void>
}
