import { availableParallelism } from 'node:os'
import { MkError } from '../../errors.js'

/** The server's capacity settings, from the environment: how many threads run calls, how many tenants stay open, what one request may carry. */
export interface ServeLimits {
  /** Threads that run tool calls (MK_SERVE_THREADS); one per core by default, at least two. */
  threads: number
  /** Tenants kept open (MK_SERVE_MAX_OPEN_TENANTS); the least recently used idle one beyond it is closed. */
  maxOpenTenants: number
  /** Calls one tenant may have waiting for a thread (MK_SERVE_MAX_WAITING); more are answered 429. */
  maxWaitingPerTenant: number
  /** Writes of one tenant run at once (MK_SERVE_TENANT_WRITES); beyond it its searches take the free threads. Default: every thread. */
  maxWritesPerTenant: number
  /** How much sooner a write is wanted than a search (MK_SERVE_WRITE_LEAD_MS): see SchedulerSettings.writeLeadMs. */
  writeLeadMs: number
  /** The largest request body (MK_SERVE_MAX_BODY_BYTES); a larger one is answered 413. */
  maxBodyBytes: number
  /** A body at least this large makes its call heavy: it never takes the last free thread. */
  heavyBodyBytes: number
  /** Scopes one tenant may have (MK_SERVE_MAX_SCOPES); a call naming one more is answered 403 scope_limit. */
  maxScopesPerTenant: number
  /** How long a tool call may run (MK_SERVE_TOOL_TIMEOUT_MS) unless the tool sets its own; past it: 504 TIMEOUT, thread replaced. */
  toolTimeoutMs: number
}

export const defaultServeLimits: Omit<ServeLimits, 'threads' | 'maxWritesPerTenant'> = {
  maxOpenTenants: 16,
  maxWaitingPerTenant: 256,
  maxBodyBytes: 4 * 1024 * 1024,
  heavyBodyBytes: 64 * 1024,
  maxScopesPerTenant: 64,
  toolTimeoutMs: 30_000,
  // A write is held to its longest wait (300 ms), a search only to its p99 (500 ms): at 200 ms adds waited up to 563 ms, at 300 up to 321 (ADR 0024).
  writeLeadMs: 300,
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, range: [number, number], meaning: string): number {
  const text = env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (Number.isInteger(value) && value >= range[0] && value <= range[1]) return value
  throw new MkError('INVALID_INPUT', `${name} is "${text}", not a whole number from ${range[0]} to ${range[1]}`, {
    details: { field: name, hint: `${name} is ${meaning}; unset it for the default, ${fallback}` },
  })
}

export function serveLimitsFrom(env: NodeJS.ProcessEnv): ServeLimits {
  const threads = wholeNumber(env, 'MK_SERVE_THREADS', Math.max(2, Math.min(8, availableParallelism())), [1, 64], 'the number of threads that run tool calls')
  return {
    threads,
    maxWritesPerTenant: wholeNumber(env, 'MK_SERVE_TENANT_WRITES', threads, [1, 64], "how many of one tenant's writes run at once"),
    maxOpenTenants: wholeNumber(env, 'MK_SERVE_MAX_OPEN_TENANTS', defaultServeLimits.maxOpenTenants, [1, 100_000], 'how many tenants stay open'),
    maxWaitingPerTenant: wholeNumber(
      env,
      'MK_SERVE_MAX_WAITING',
      defaultServeLimits.maxWaitingPerTenant,
      [1, 1_000_000],
      'how many calls one tenant may have waiting',
    ),
    maxBodyBytes: wholeNumber(env, 'MK_SERVE_MAX_BODY_BYTES', defaultServeLimits.maxBodyBytes, [1024, 1024 * 1024 * 1024], 'the largest request body in bytes'),
    heavyBodyBytes: defaultServeLimits.heavyBodyBytes,
    writeLeadMs: wholeNumber(
      env,
      'MK_SERVE_WRITE_LEAD_MS',
      defaultServeLimits.writeLeadMs,
      [0, 60_000],
      "how many milliseconds sooner a tenant's write is wanted than its search",
    ),
    maxScopesPerTenant: wholeNumber(
      env,
      'MK_SERVE_MAX_SCOPES',
      defaultServeLimits.maxScopesPerTenant,
      [0, 100_000],
      'how many scopes one tenant may have besides its default one',
    ),
    toolTimeoutMs: wholeNumber(
      env,
      'MK_SERVE_TOOL_TIMEOUT_MS',
      defaultServeLimits.toolTimeoutMs,
      [100, 24 * 60 * 60 * 1000],
      'how many milliseconds a tool call may run before it is answered 504 TIMEOUT',
    ),
  }
}
