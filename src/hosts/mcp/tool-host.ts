import { MkError, toErrorObject, type ErrorObject } from '../../errors.js'
import type { McpCallResult, McpCallSession, McpHost, McpToolSpec } from './host.js'
import { dispatch, type CallerContext } from '../../tools/dispatcher.js'
import type { ToolSession } from '../../tools/context.js'
import type { AnyTool } from '../../tools/define.js'
import { inputJsonSchema, outputJsonSchema } from '../../tools/generate/json-schema.js'
import { tierPolicies } from '../../tools/generate/tier-policy.js'
import { ToolRateLimits } from '../../tools/rate-limits.js'
import { knowledgeResources, type RunTool } from './resources.js'

/** `withOutputSchema` false leaves the output schema out of tools/list (the core profile); results keep their structured content. */
export function toMcpToolSpec(tool: AnyTool, withOutputSchema = true): McpToolSpec {
  const policy = tierPolicies[tool.tier]
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool),
    ...(withOutputSchema ? { outputSchema: outputJsonSchema(tool) } : {}),
    annotations: {
      title: tool.title,
      readOnlyHint: policy.readOnly,
      destructiveHint: tool.destructive ?? policy.destructive,
      idempotentHint: tool.idempotent,
      openWorldHint: policy.openWorld,
    },
  }
}

function errorResult(error: ErrorObject, warnings: readonly string[]): McpCallResult {
  return { isError: true, texts: [JSON.stringify(error, null, 2), ...warnings.map((warning) => `warning: ${warning}`)] }
}

/** The caller's context minus what differs per MCP call (approval, progress). */
export type ServerContext = Omit<CallerContext, 'approve' | 'progress'>

export interface ToolHostOptions {
  /** Whether tools/list carries output schemas (default true). */
  outputSchemas?: boolean
  /**
   * Tools a session may load with tools_search besides those it starts with (the core profile: the
   * rest of the registry). The resources also read through the read-only ones.
   */
  loadable?: readonly AnyTool[]
  /** Each tool's manifest rate limit for the server's one client (default: a fresh limiter on the clock). */
  rateLimits?: ToolRateLimits
}

/**
 * mk's tools as an MCP host: every call goes through the same dispatcher as the CLI,
 * with one Resources for the server's life so the index and model stay loaded.
 */
export function createToolHost(tools: readonly AnyTool[], context: ServerContext, options: ToolHostOptions = {}): McpHost {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const loadable = new Map([...(options.loadable ?? []), ...tools].map((tool) => [tool.name, tool]))
  let specs = tools.map((tool) => toMcpToolSpec(tool, options.outputSchemas ?? true))
  const listeners: (() => void)[] = []
  const rateLimits = options.rateLimits ?? new ToolRateLimits()
  // Calls still running when the client disconnects finish before the resources close and the process ends.
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work)
    return work.finally(() => inFlight.delete(work))
  }
  // Resources and prompts only read, through the read-only tools the session may use.
  const runRead: RunTool = async (name, input) => {
    const tool = loadable.get(name)
    if (tool === undefined || tool.tier !== 'read_only') return undefined
    return track(dispatch(tool, input, context))
  }
  const toolSession: ToolSession = {
    offered: () => [...byName.keys()],
    offer(names) {
      const unavailable = names.filter((name) => !loadable.has(name))
      if (unavailable.length > 0) {
        throw new MkError('FORBIDDEN', `${unavailable.join(', ')} cannot be loaded in this session`, {
          details: { names: unavailable, hint: 'this profile offers only what it lists; start mk mcp --profile main for every tool' },
        })
      }
      const added = [...new Set(names)].filter((name) => !byName.has(name))
      if (added.length === 0) return []
      for (const name of added) {
        const tool = loadable.get(name) as AnyTool
        byName.set(name, tool)
        specs = [...specs, toMcpToolSpec(tool, options.outputSchemas ?? true)]
      }
      for (const listener of listeners) listener()
      return added
    },
  }
  return {
    ...knowledgeResources(runRead),
    get tools() {
      return specs
    },
    onToolsChanged(listener) {
      listeners.push(listener)
    },
    async call(name: string, args: Record<string, unknown>, session: McpCallSession): Promise<McpCallResult> {
      const tool = byName.get(name)
      if (tool === undefined) {
        const error = new MkError('NOT_FOUND', `no tool named "${name}" is offered here`, {
          details: {
            tool: name,
            hint: `tools offered: ${[...byName.keys()].join(', ')}${loadable.size > byName.size ? '; tools_search finds and loads the others' : ''}`,
          },
        })
        return errorResult(toErrorObject(error), [])
      }
      try {
        rateLimits.take('mcp client', tool)
      } catch (error) {
        return errorResult(toErrorObject(error), [])
      }
      const call = dispatch(tool, args, {
        ...context,
        toolSession,
        ...(session.approve === undefined ? {} : { approve: session.approve }),
        ...(session.signal === undefined ? {} : { cancel: session.signal }),
        ...(session.progress === undefined
          ? {}
          : {
              progress: (event) =>
                session.progress?.({
                  progress: event.done,
                  ...(event.total === undefined ? {} : { total: event.total }),
                  message: event.message ?? event.phase,
                }),
            }),
      })
      const outcome = await track(call)
      if (!outcome.ok) {
        // The schema lets a model see every field it may send while it corrects the call.
        const error =
          outcome.error.errorCode === 'INVALID_INPUT'
            ? { ...outcome.error, details: { ...outcome.error.details, inputSchema: inputJsonSchema(tool) } }
            : outcome.error
        return errorResult(error, outcome.warnings)
      }
      return {
        isError: false,
        structuredContent: outcome.output as Record<string, unknown>,
        texts: [outcome.display, ...outcome.warnings.map((warning) => `warning: ${warning}`)],
        artifacts: outcome.artifacts,
      }
    },
    async close() {
      await Promise.allSettled([...inFlight])
      await context.resources.closeAll()
    },
  }
}
