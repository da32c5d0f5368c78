import type { z } from 'zod'
import type { Style } from '../style.js'
import type { ToolContext } from './context.js'

export const tiers = ['read_only', 'workspace', 'system', 'elevated'] as const
export type Tier = (typeof tiers)[number]

export interface ToolResult<Output> {
  output: Output
  /** The human rendering of `output`; left out by a tool whose `render` makes it from the output alone. */
  display?: string
  /** 1: the tool ran and found blocking problems (a failed check); 2: the result cannot be trusted (lint errors). */
  exitCode?: 1 | 2
}

export interface ToolExample<Input, Output> {
  title: string
  input: Input
  output: Output
}

/**
 * How a tool's result becomes text for people: either `run` returns its display with its
 * output, or `render` makes the display from the output alone, and `run` returns data only.
 */
export type ToolRendering<Input, Output> =
  | {
      run(input: Input, ctx: ToolContext): Promise<ToolResult<Output> & { display: string }>
      render?: undefined
    }
  | {
      run(input: Input, ctx: ToolContext): Promise<ToolResult<Output> & { display?: undefined }>
      /** The human rendering of an output: only a host that shows text (the CLI) asks for it. */
      render(output: Output, style: Style): string
    }

export type ToolDefinition<
  InputSchema extends z.ZodType = z.ZodType,
  OutputSchema extends z.ZodType = z.ZodType,
  Name extends string = string,
> = ToolDescription<InputSchema, OutputSchema, Name> & ToolRendering<z.output<InputSchema>, z.output<OutputSchema>>

export interface ToolDescription<InputSchema extends z.ZodType, OutputSchema extends z.ZodType, Name extends string> {
  /** snake_case, stable: agents call tools by this name. */
  name: Name
  title: string
  /** What a model reads to decide whether to call the tool. */
  description: string
  tier: Tier
  idempotent: boolean
  /** Removes what is already there although its tier does not say so (MCP destructiveHint). */
  destructive?: boolean
  timeoutMs?: number
  input: InputSchema
  output: OutputSchema
  examples: readonly ToolExample<z.input<InputSchema>, z.output<OutputSchema>>[]
}

/** The one place a tool is described; the CLI, MCP server and generated documents all read it. The name stays a literal type, for the library's method names. */
export function defineTool<InputSchema extends z.ZodType, OutputSchema extends z.ZodType, const Name extends string>(
  definition: ToolDefinition<InputSchema, OutputSchema, Name>,
): ToolDefinition<InputSchema, OutputSchema, Name> {
  return definition
}

/** A tool whose schemas have been erased, for registries and dispatch. */
export type AnyTool = ToolDefinition<z.ZodType, z.ZodType>
