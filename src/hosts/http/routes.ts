import type { ErrorCode } from '../../errors.js'

/** A tenant id: lower case, digits, - and _, so it is also a safe folder name on every file system. */
export const tenantIdPattern = /^[a-z0-9][a-z0-9_-]{0,62}$/

/** How a route answers: the tool's whole output, or (recall_text) only the context text memory_recall composed. */
export type RouteView = 'output' | 'context_text'

/** One HTTP route of `mk serve`: POST path -> tool. */
export interface HttpRoute {
  path: string
  tool: string
  view: RouteView
}

export function toolRoutePath(toolName: string): string {
  return `/v1/tools/${toolName}`
}

/** The memory-graph API contract's named routes, each an alias of one tool. */
const contractAliases: readonly HttpRoute[] = [
  { path: '/v1/memory/recall', tool: 'memory_recall', view: 'output' },
  { path: '/v1/memory/recall_text', tool: 'memory_recall', view: 'context_text' },
  { path: '/v1/memory/rules/evaluate', tool: 'rules_evaluate', view: 'output' },
  { path: '/v1/memory/tools/select', tool: 'tools_select', view: 'output' },
  { path: '/v1/memory/tools/feedback', tool: 'tools_feedback', view: 'output' },
  { path: '/v1/memory/archive/rehydrate', tool: 'memory_rehydrate', view: 'output' },
  { path: '/v1/memory/nodes/activate', tool: 'memory_activate', view: 'output' },
]

/** Every route for the offered tools: one per tool, plus the contract's aliases of tools that are offered. */
export function httpRoutes(toolNames: readonly string[]): HttpRoute[] {
  const offered = new Set(toolNames)
  return [
    ...toolNames.map((tool): HttpRoute => ({ path: toolRoutePath(tool), tool, view: 'output' })),
    ...contractAliases.filter((alias) => offered.has(alias.tool)),
  ]
}

/** What a context_text route answers, from memory_recall's output. */
export function contextTextOf(output: unknown): { text: string } {
  const context = (output as { context?: { text?: unknown } }).context
  return { text: typeof context?.text === 'string' ? context.text : '' }
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
