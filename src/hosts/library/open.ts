import { resolve } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import { runtimeEnvFrom } from '../../config/workspace.js'
import { MkError, type ErrorObject } from '../../errors.js'
import { setEmbeddingThread } from '../../search/embedding/bundled.js'
import { plainStyle } from '../../style.js'
import { Resources } from '../../tools/context.js'
import type { AnyTool } from '../../tools/define.js'
import { dispatch, type CallerContext } from '../../tools/dispatcher.js'
import { findRegisteredTool, registeredTools } from '../../tools/catalog/registered.js'
import type { CallOptions, Mk, OpenMkOptions } from './api.js'
import { methodName } from './method-name.js'

/** The failure a call reported, thrown as the typed error callers catch. */
function thrownError(error: ErrorObject): MkError {
  return new MkError(error.errorCode, error.message, { ...(error.details === undefined ? {} : { details: error.details }), retryable: error.retryable })
}

/**
 * Open mk on a workspace. One Resources lives until close(), so the index and
 * the model stay loaded between calls, as in the MCP server.
 */
export async function openMk(options: OpenMkOptions): Promise<Mk> {
  // Questions embed on a thread of their own, beside the search's full text, as in the MCP server.
  setEmbeddingThread(true)
  const env = options.env ?? process.env
  const workspace = await loadWorkspace({ cwd: options.cwd, env })
  const runtime = runtimeEnvFrom(env)
  const context: CallerContext = {
    workspace,
    env,
    cwd: resolve(options.cwd),
    runtime: { ...runtime, readOnly: runtime.readOnly || options.readOnly === true },
    style: plainStyle,
    resources: new Resources(),
    ...(options.approve === undefined ? {} : { approve: options.approve }),
    ...(options.warn === undefined ? {} : { warn: options.warn }),
  }
  const inFlight = new Set<Promise<unknown>>()
  let closed = false

  async function run(tool: AnyTool, input: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    if (closed) throw new MkError('CONFLICT', `${tool.name} was called after close()`, { details: { tool: tool.name, hint: 'open mk again with openMk()' } })
    const work = dispatch(tool, input ?? {}, { ...context, ...(callOptions.signal === undefined ? {} : { cancel: callOptions.signal }) })
    inFlight.add(work)
    const outcome = await work.finally(() => inFlight.delete(work))
    if (!outcome.ok) throw thrownError(outcome.error)
    return outcome.output
  }

  const methods = (await registeredTools()).map((tool) => [
    methodName(tool.name),
    (input?: unknown, callOptions?: CallOptions) => run(tool, input, callOptions),
  ])
  return {
    // Built from the same registry the Mk type is mapped from; test/unit/hosts/library checks the two name the same tools.
    ...(Object.fromEntries(methods) as Omit<Mk, 'call' | 'close'>),
    async call(toolName, input, callOptions) {
      return run(await findRegisteredTool(toolName), input, callOptions)
    },
    async close() {
      closed = true
      await Promise.allSettled([...inFlight])
      await context.resources.closeAll()
    },
  }
}
