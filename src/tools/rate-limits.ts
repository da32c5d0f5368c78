import { MkError } from '../errors.js'
import { TokenBuckets } from '../token-buckets.js'
import type { AnyTool } from './define.js'
import { tierPolicies } from './generate/tier-policy.js'

/** The manifest's `constraints.rate_limit` of a tool (seed 004), the rate its hosts enforce. */
export function toolRateLimit(tool: Pick<AnyTool, 'tier'>): { requests_per_minute: number } {
  return { requests_per_minute: tierPolicies[tool.tier].requestsPerMinute }
}

/**
 * Each tool's manifest rate limit, per caller: the MCP server's one client, or the agent a team
 * server's credential proves (in every scope together). A bucket holds a minute's calls and refills evenly,
 * so a caller never makes more than a minute's worth in a burst nor, over time, more per minute.
 */
export class ToolRateLimits {
  private readonly buckets: TokenBuckets

  constructor(
    now?: () => number,
    private readonly perMinuteOf: (tool: AnyTool) => number = (tool) => toolRateLimit(tool).requests_per_minute,
  ) {
    this.buckets = new TokenBuckets(now)
  }

  /** Takes one call of the tool for the caller, or throws RATE_LIMITED with the seconds until the next is allowed. */
  take(caller: string, tool: AnyTool): void {
    const perMinute = this.perMinuteOf(tool)
    const retryAfterSeconds = this.buckets.take(`${caller}\u0000${tool.name}`, { perSecond: perMinute / 60, burst: perMinute })
    if (retryAfterSeconds === undefined) return
    throw new MkError('RATE_LIMITED', `${tool.name} is limited to ${perMinute} calls a minute per caller; this caller is over it`, {
      details: {
        reason: 'tool_rate_limited',
        tool: tool.name,
        requests_per_minute: perMinute,
        retry_after_s: retryAfterSeconds,
        hint: `retry after ${retryAfterSeconds} s (constraints.rate_limit of ${tool.name} in the tool manifest)`,
      },
    })
  }
}
