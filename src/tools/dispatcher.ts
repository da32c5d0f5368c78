import { randomUUID } from 'node:crypto'
import { MkError, toErrorObject, type ErrorObject } from '../errors.js'
import { describeIssues } from '../validation.js'
import { requireApproval } from './approval.js'
import { artifactsOf, type Artifact } from './artifacts.js'
import type { ToolContext } from './context.js'
import type { AnyTool, ToolResult } from './define.js'
import { openStore } from './open-store.js'
import { requireAllowedInputPaths } from './path-access.js'
import type { DatabasePlace } from '../stores/store.js'
import { requireRoleAllows } from './roles.js'

export type DispatchOutcome =
  /** `output` is undefined, and `artifacts` empty, for a caller that asked for the display only; `artifacts` is what the call produced (seed 001). */
  | { ok: true; output: unknown; display: string; exitCode: 0 | 1 | 2; warnings: string[]; artifacts: Artifact[] }
  | { ok: false; error: ErrorObject; warnings: string[] }

/** What a caller provides; the dispatcher adds the request id, the abort signal and warning collection. */
export type CallerContext = Omit<ToolContext, 'signal' | 'requestId' | 'warn' | 'store'> & {
  warn?: (message: string) => void
  /** Aborted when the caller gives up (an MCP client cancels the request): the tool's signal aborts with it. */
  cancel?: AbortSignal
  /**
   * The caller shows only the display (the CLI without --json). The output
   * never leaves the process then, so it is neither checked nor returned:
   * checking 3,000 violations against the schema took 40 ms of a 500 ms check.
   */
  displayOnly?: boolean
  /** The limit for a tool that sets none of its own (a team server's MK_SERVE_TOOL_TIMEOUT_MS); absent: 30 s. */
  timeoutMs?: number | undefined
  /** The server's own call (its warm-up, which may embed a whole index): no time limit, not even the tool's. No request sets it. */
  unbounded?: boolean | undefined
  /** The tenant's rows in a database store (a team server's --store); absent: the files store. */
  database?: DatabasePlace | undefined
}

export const defaultTimeoutMs = 30_000

/** How long a call of `tool` may run: its own limit, else the caller's (a team server's), else 30 s. */
export function timeoutOf(tool: { timeoutMs?: number | undefined }, fallbackMs: number = defaultTimeoutMs): number {
  return tool.timeoutMs ?? fallbackMs
}

function invalidInput(tool: AnyTool, rawInput: unknown, issues: Parameters<typeof describeIssues>[0]): MkError {
  const problems = describeIssues(issues, rawInput)
  const first = problems[0]
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
  return new MkError('INVALID_INPUT', `invalid input for ${tool.name}: ${first?.message ?? 'invalid'}${more}`, {
    details: { tool: tool.name, problems },
  })
}

async function checkTier(tool: AnyTool, ctx: CallerContext): Promise<void> {
  if (tool.tier === 'read_only') return
  if (ctx.runtime.readOnly) {
    throw new MkError(
      'FORBIDDEN',
      `${tool.name} changes state (tier ${tool.tier}) and mk is in read-only mode (MK_READ_ONLY or READ_ONLY is set, or --read-only)`,
      {
        details: { tool: tool.name, tier: tool.tier, hint: 'unset MK_READ_ONLY and READ_ONLY (or set them to 0) to allow changes' },
      },
    )
  }
  if (tool.tier === 'elevated') await requireApproval(ctx, tool.name, `Allow ${tool.title} (${tool.name})?`)
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, controller: AbortController, toolName: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new MkError('TIMEOUT', `${toolName} did not finish within ${timeoutMs} ms`, { details: { timeoutMs } }))
      controller.abort()
    }, timeoutMs)
    timer.unref()
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/** The caller gave up (an MCP client cancelled, or its own request timed out): the call is abandoned, not broken. */
function cancelledError(tool: AnyTool, signal: AbortSignal): MkError {
  const reason = signal.reason === undefined ? undefined : signal.reason instanceof Error ? signal.reason.message : String(signal.reason)
  return new MkError('TIMEOUT', `${tool.name} was cancelled by the caller before it finished${reason === undefined ? '' : ` (${reason})`}`, {
    details: { tool: tool.name, cancelled: true, ...(reason === undefined ? {} : { reason }) },
    retryable: true,
  })
}

/** Output schemas are strict: a key the schema does not name is a bug, reported instead of leaked. */
function checkedOutput(tool: AnyTool, output: unknown): unknown {
  const checked = tool.output.safeParse(output)
  if (!checked.success) {
    throw new MkError('INTERNAL_ERROR', `${tool.name} produced output that does not match its schema`, {
      details: { problems: describeIssues(checked.error.issues, output) },
    })
  }
  return checked.data
}

function logCall(ctx: CallerContext, entry: { request_id: string; tool: string; duration_ms: number; status: string; error_code?: string }): void {
  if (!ctx.runtime.logJson) return
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`)
}

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: Node loads node:perf_hooks the first
 * time the `performance` global is read, about 1 ms of every short command, for one duration.
 */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6

/** Every caller (CLI, MCP, programmatic) runs tools through here. */
export async function dispatch(tool: AnyTool, rawInput: unknown, caller: CallerContext): Promise<DispatchOutcome> {
  const requestId = randomUUID()
  const started = monotonicMs()
  const warnings: string[] = []
  const controller = new AbortController()
  const { cancel, displayOnly, database, timeoutMs, unbounded, ...callerContext } = caller
  cancel?.addEventListener('abort', () => controller.abort(cancel.reason), { once: true })
  if (cancel?.aborted === true) controller.abort(cancel.reason)
  const ctx: ToolContext = {
    ...callerContext,
    store: await openStore({ workspace: caller.workspace, resources: caller.resources, database }),
    requestId,
    signal: controller.signal,
    warn(message) {
      warnings.push(message)
      caller.warn?.(message)
    },
  }
  try {
    // Before the input is read: a role that may not call the tool learns nothing from how its input would be judged.
    requireRoleAllows(tool, caller.runtime.credential)
    const parsed = tool.input.safeParse(rawInput ?? {})
    if (!parsed.success) throw invalidInput(tool, rawInput, parsed.error.issues)
    requireAllowedInputPaths(tool, parsed.data, { root: caller.workspace.root, mkHome: caller.workspace.mkHome, cwd: caller.cwd })
    await checkTier(tool, caller)
    // Cancelled while it waited for approval: never start it.
    if (cancel?.aborted === true) throw cancelledError(tool, cancel)
    const running: Promise<ToolResult<unknown>> = tool.run(parsed.data, ctx)
    const result = unbounded === true ? await running : await withTimeout(running, timeoutOf(tool, timeoutMs), controller, tool.name)
    const output = displayOnly === true ? undefined : checkedOutput(tool, result.output)
    logCall(caller, { request_id: requestId, tool: tool.name, duration_ms: Math.round(monotonicMs() - started), status: 'ok' })
    const display = result.display ?? tool.render?.(result.output, ctx.style) ?? ''
    return {
      ok: true,
      output,
      display,
      exitCode: result.exitCode ?? 0,
      warnings,
      artifacts: displayOnly === true ? [] : artifactsOf(tool.name, parsed.data, result.output),
    }
  } catch (thrown) {
    const cancelled = cancel?.aborted === true
    const error = toErrorObject(cancelled ? cancelledError(tool, cancel) : thrown)
    logCall(caller, {
      request_id: requestId,
      tool: tool.name,
      duration_ms: Math.round(monotonicMs() - started),
      status: cancelled ? 'cancelled' : 'error',
      error_code: error.errorCode,
    })
    return { ok: false, error, warnings }
  }
}
