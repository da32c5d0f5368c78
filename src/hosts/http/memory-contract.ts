import { z } from 'zod'
import type { ErrorObject } from '../../errors.js'
import { contractRequest, contractResponse } from './contract-dto.js'

/** Where a contract request acts, echoed in every answer: seed 002's isolation key. */
export interface Placement {
  tenant_id: string
  scope: string
}

/** Runs one of mk's tools for the request, in its tenant and scope, through the same admission and dispatcher as /v1/tools. */
export type ToolCaller = (tool: string, input: Record<string, unknown>) => Promise<unknown>

/** What a contract route needs besides its body. */
export interface ContractCallContext {
  call: ToolCaller
  place: Placement
  /** X-Admin-Token, the spec's header for the debug channel. */
  adminToken: string | undefined
}

/** A failure the spec names with its own status and code (400 no_tools_allowed, 429/503/502 upstream_embedding_*). */
export interface ContractFailure {
  status: number
  code: string
  retryAfterSeconds?: number
}

/** One `/v1/memory/*` route of seed 002: its request and response as the spec writes them, answered with mk's tools. */
export interface ContractRoute {
  path: string
  /** The tool the route stands for: its role and tier decide who may call it; the log names it. */
  tool: string
  /** Every tool the route calls: the route is served only when all are offered. */
  tools: readonly string[]
  request: z.ZodType
  response: z.ZodType
  answer(body: unknown, context: ContractCallContext): Promise<unknown>
  failure(error: ErrorObject): ContractFailure | undefined
}

export interface ContractRouteDefinition<S extends z.ZodType, R extends z.ZodType> {
  path: string
  tool: string
  tools?: readonly string[]
  request: S
  response: R
  answer(request: z.output<S>, context: ContractCallContext): Promise<z.input<R>>
  failure?(error: ErrorObject): ContractFailure | undefined
}

/** A route whose request is read by its schema and whose answer passes the DTO whitelist. */
export function contractRoute<S extends z.ZodType, R extends z.ZodType>(definition: ContractRouteDefinition<S, R>): ContractRoute {
  return {
    path: definition.path,
    tool: definition.tool,
    tools: definition.tools ?? [definition.tool],
    request: definition.request,
    response: definition.response,
    async answer(body, context) {
      const request = contractRequest(definition.request, body, definition.path)
      return contractResponse(definition.response, await definition.answer(request, context), definition.path)
    },
    failure: definition.failure ?? (() => undefined),
  }
}

/**
 * The code a contract client reads for any failure: the spec's own where it names one (the
 * route's, else a reason mk already gives in its own words: identity_mismatch,
 * tenant_rate_limited_recall, ...), else mk's error code in lower case.
 */
export function contractFailureOf(route: ContractRoute | undefined, error: ErrorObject, statusOf: (error: ErrorObject) => number): ContractFailure {
  const own = route?.failure(error)
  if (own !== undefined) return own
  const reason = error.details?.reason
  const retryAfter = error.details?.retry_after_s
  return {
    status: statusOf(error),
    code: typeof reason === 'string' ? reason : error.errorCode.toLowerCase(),
    ...(typeof retryAfter === 'number' ? { retryAfterSeconds: retryAfter } : {}),
  }
}

/** Every contract request may name its tenant (else X-Tenant-Id, else the credential's) and scope (else `default`). */
export const placementFields = {
  tenant_id: z.string().optional().describe('The tenant (default: X-Tenant-Id, else the credential’s tenant, else "default")'),
  scope: z.string().optional().describe('The partition inside the tenant (default "default")'),
}
