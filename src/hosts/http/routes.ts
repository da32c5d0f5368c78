import type { ErrorCode } from '../../errors.js'

/** A tenant id: lower case, digits, - and _, so it is also a safe folder name on every file system. */
export const tenantIdPattern = /^[a-z0-9][a-z0-9_-]{0,62}$/

/** One generic HTTP route of `mk serve`: POST /v1/tools/<tool>, in mk's own names. */
export interface HttpRoute {
  path: string
  tool: string
}

export function toolRoutePath(toolName: string): string {
  return `/v1/tools/${toolName}`
}

/** One route per offered tool; seed 002's `/v1/memory/*` routes are in memory-routes.ts. */
export function httpRoutes(toolNames: readonly string[]): HttpRoute[] {
  return toolNames.map((tool): HttpRoute => ({ path: toolRoutePath(tool), tool }))
}

/** The HTTP status of each error code over `mk serve`. */
export const httpStatusByCode: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NO_TOOLS_ALLOWED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 502,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
}

/**
 * Asked for in Accept by mk's own remote adapter (MK_REMOTE): a success then
 * carries what the CLI prints too: `{output, display, exitCode, warnings}`.
 */
export const outcomeMediaType = 'application/vnd.mk.outcome+json'
