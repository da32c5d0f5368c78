import { MkError, toErrorObject, type ErrorObject } from '../../errors.js'
import type { McpCallResult, McpCallSession, McpHost, McpToolSpec } from './host.js'
import { dispatch, type CallerContext } from '../../tools/dispatcher.js'
import type { AnyTool } from '../../tools/define.js'
import { inputJsonSchema, outputJsonSchema } from '../../tools/generate/json-schema.js'
import { tierPolicies } from '../../tools/generate/tier-policy.js'
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

/**
 * mk's tools as an MCP host: every call goes through the same dispatcher as the CLI,
 * with one Resources for the server's life so the index and model stay loaded.
 */
export function createToolHost(tools: readonly AnyTool[], context: ServerContext, options: { outputSchemas?: boolean } = {}): McpHost {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const specs = tools.map((tool) => toMcpToolSpec(tool, options.outputSchemas ?? true))
  // Calls still running when the client disconnects finish before the resources close and the process ends.
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work)
    return work.finally(() => inFlight.delete(work))
  }
  // Resources and prompts only read, through the offered read-only tools.
  const runRead: RunTool = async (name, input) => {
    const tool = byName.get(name)
    if (tool === undefined || tool.tier !== 'read_only') return undefined
    return track(dispatch(tool, input, context))
  }
  return {
    ...knowledgeResources(runRead),
    tools: specs,
    async call(name: string, args: Record<string, unknown>, session: McpCallSession): Promise<McpCallResult> {
      const tool = byName.get(name)
      if (tool === undefined) {
        const error = new MkError('NOT_FOUND', `no tool named "${name}" is offered here`, {
          details: { tool: name, hint: `tools offered: ${[...byName.keys()].join(', ')}` },
        })
        return errorResult(toErrorObject(error), [])
      }
      const call = dispatch(tool, args, {
        ...context,
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
      }
    },
    async close() {
      await Promise.allSettled([...inFlight])
      await context.resources.closeAll()
    },
  }
}
