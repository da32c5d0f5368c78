import type { RuntimeEnv } from '../../config/workspace.js'
import { MkError, toErrorObject } from '../../errors.js'
import { plainStyle } from '../../style.js'
import type { AnyTool } from '../../tools/define.js'
import { dispatch, type DispatchOutcome } from '../../tools/dispatcher.js'
import type { TenantStores } from './tenants.js'

/** One call of a tool for a tenant, as the request handler resolved it: plain data, so it can cross to a worker thread. */
export interface ToolCall {
  tool: string
  tenantId: string
  /** The partition inside the tenant (seed 002's scope); `default` is the tenant's own workspace. */
  scope: string
  input: Record<string, unknown>
  runtime: RuntimeEnv
  /** Set by the server for its own warm-up only (never from a request): the call runs without a deadline. */
  unbounded?: true
}

/**
 * Runs a call on the tenant's store in this thread; a store that cannot be opened is the call's error, not a throw.
 * The tool sees the server's environment (the operator's settings: model hub, source tokens) and,
 * as its working directory, the tenant's workspace: never the folder the server process started in.
 */
export async function runToolCall(
  stores: TenantStores,
  tools: ReadonlyMap<string, AnyTool>,
  call: ToolCall,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs?: number,
): Promise<DispatchOutcome> {
  const tool = tools.get(call.tool)
  if (tool === undefined) return { ok: false, error: toErrorObject(new MkError('NOT_FOUND', `no tool ${call.tool}`)), warnings: [] }
  let store
  try {
    store = await stores.open(call.tenantId, call.scope)
  } catch (error) {
    return { ok: false, error: toErrorObject(error), warnings: [] }
  }
  const { workspace, resources, database } = store
  return dispatch(tool, call.input, {
    workspace,
    env,
    cwd: workspace.root,
    runtime: call.runtime,
    style: plainStyle,
    resources,
    database,
    timeoutMs,
    unbounded: call.unbounded,
  })
}
