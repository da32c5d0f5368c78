import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RuntimeEnv } from '../../config/workspace.js'
import { MkError, toErrorObject, type ErrorObject } from '../../errors.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import type { AnyTool } from '../../tools/define.js'
import { inputJsonSchema } from '../../tools/generate/json-schema.js'
import { ToolRateLimits } from '../../tools/rate-limits.js'
import type { Authenticator } from './auth.js'
import { authPlugin, type CallerStore } from './auth-plugin.js'
import { admitCall, bodyObject } from './call-admission.js'
import { callKindOf, type CallScheduler } from './call-scheduler.js'
import { provenCaller, resolveTenant } from './caller-input.js'
import type { CallerIdentity } from './identity.js'
import type { TenantQuotas } from './quotas.js'
import { headerText, sendError } from './replies.js'
import type { RequestFacts, RequestFactsStore } from './request-facts.js'
import { contractFailureOf, type ContractRoute, type ToolCaller } from './memory-contract.js'
import { offeredContractRoutes } from './memory-routes.js'
import { defaultScope, requireScope } from './tenants.js'
import { httpRoutes, httpStatusByCode, outcomeMediaType } from './routes.js'
import type { ServeLimits } from './serve-limits.js'
import { errorForTenant, warningsForTenant } from './tenant-errors.js'

export interface ToolRoutesPluginOptions {
  tools: readonly AnyTool[]
  calls: CallScheduler
  limits: Pick<ServeLimits, 'heavyBodyBytes'>
  placesOf: (tenantId: string, scope: string) => TenantPlaces
  runtime: RuntimeEnv
  auth: Authenticator
  quotas: TenantQuotas
  log: (line: string) => void
  callerRuntimeHeaders: boolean
  facts: RequestFactsStore
}

/** POST one route per offered tool plus seed 002's `/v1/memory/*` routes, each call through the same dispatcher as the CLI and MCP. */
export async function toolRoutesPlugin(app: FastifyInstance, options: ToolRoutesPluginOptions): Promise<void> {
  const routes = httpRoutes(options.tools.map((tool) => tool.name))
  const contractRoutes = offeredContractRoutes(options.tools.map((tool) => tool.name))
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]))
  const toolOfPath = new Map([...routes, ...contractRoutes].map((route) => [route.path, route.tool]))
  const inputFields = new Map(options.tools.map((tool) => [tool.name, new Set(Object.keys((inputJsonSchema(tool).properties ?? {}) as object))]))
  const callers: CallerStore = new WeakMap()
  const toolLimits = new ToolRateLimits()
  const places = new WeakMap<FastifyRequest, TenantPlaces>()
  // What a remote caller is sent names no server path; the local socket's caller is the server's own user.
  const forCaller = (error: ErrorObject, request: FastifyRequest): ErrorObject =>
    options.callerRuntimeHeaders ? error : errorForTenant(error, places.get(request), request.id, options.log)

  app.addHook('preHandler', async (request) => {
    const tool = toolOfPath.get(request.routeOptions.url ?? '')
    if (tool !== undefined) options.facts.of(request).tool = tool
  })
  await app.register(authPlugin, { auth: options.auth, callers, facts: options.facts, forCaller })

  const runtimeOf = (request: FastifyRequest, identity: CallerIdentity | undefined): RuntimeEnv => {
    if (options.callerRuntimeHeaders) {
      return {
        ...options.runtime,
        agentId: headerText(request.headers['x-mk-agent-id']),
        teamId: headerText(request.headers['x-mk-team-id']),
        sessionId: headerText(request.headers['x-mk-session-id']),
      }
    }
    // A credential's caller is who the credential says, never the server's own MK_AGENT_ID, MK_TEAM_ID or MK_SESSION_ID.
    if (identity !== undefined)
      return {
        ...options.runtime,
        agentId: identity.agentId,
        teamId: identity.teamId,
        sessionId: undefined,
        credential: provenCaller(identity),
        served: true,
      }
    return { ...options.runtime, credential: undefined, served: true }
  }

  /** One tool call, admitted (tenant, scope, role, identity fields, quota) and run on a tool thread in the tenant's turn. */
  const runTool = async (tool: AnyTool, body: unknown, request: FastifyRequest, known: RequestFacts): Promise<DispatchOutcome> => {
    const identity = callers.get(request)
    const { tenantId, scope, input } = admitCall(
      {
        tool,
        body,
        headerTenant: headerText(request.headers['x-tenant-id']),
        identity,
        inputFields: inputFields.get(tool.name) ?? new Set(),
        quotas: options.quotas,
        toolLimits,
      },
      known,
    )
    places.set(request, options.placesOf(tenantId, scope))
    const bodyBytes = Number(request.headers['content-length'] ?? 0) || 0
    return options.calls.run(
      { tool: tool.name, tenantId, scope, input, runtime: runtimeOf(request, identity) },
      callKindOf(tool, bodyBytes, options.limits.heavyBodyBytes),
      (times) => {
        known.waitedMs = (known.waitedMs ?? 0) + times.waitedMs
        known.ranMs = (known.ranMs ?? 0) + times.ranMs
      },
    )
  }

  const handle = async (tool: AnyTool, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const known = options.facts.of(request)
    try {
      const outcome = await runTool(tool, request.body, request, known)
      if (!outcome.ok) {
        known.errorCode = outcome.error.errorCode
        return sendError(reply, forCaller(outcome.error, request))
      }
      const warnings = options.callerRuntimeHeaders ? outcome.warnings : warningsForTenant(outcome.warnings, places.get(request))
      if (outcome.exitCode !== 0) void reply.header('x-mk-exit-code', String(outcome.exitCode))
      if (headerText(request.headers.accept)?.includes(outcomeMediaType) === true) {
        return reply
          .code(200)
          .type(outcomeMediaType)
          .send({ output: outcome.output, display: outcome.display, exitCode: outcome.exitCode, warnings, artifacts: outcome.artifacts })
      }
      return reply.code(200).send(outcome.output)
    } catch (thrown) {
      const error = toErrorObject(thrown)
      known.errorCode = error.errorCode
      return sendError(reply, forCaller(error, request))
    }
  }

  /** A seed 002 route: the spec's request in, mk's tools run, the spec's DTO out; a failure carries the spec's code as `error`. */
  const handleContract = async (route: ContractRoute, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const known = options.facts.of(request)
    try {
      const body = bodyObject(request.body)
      const place = {
        tenant_id: resolveTenant(body.tenant_id, headerText(request.headers['x-tenant-id']), callers.get(request)),
        scope: body.scope === undefined ? defaultScope : requireScope(body.scope),
      }
      known.tenant = place.tenant_id
      places.set(request, options.placesOf(place.tenant_id, place.scope))
      const call: ToolCaller = async (toolName, input) => {
        const tool = byName.get(toolName)
        if (tool === undefined) throw new MkError('NOT_FOUND', `no tool ${toolName}`)
        const outcome = await runTool(tool, { ...input, tenant_id: place.tenant_id, scope: place.scope }, request, known)
        if (!outcome.ok) throw new ToolCallFailed(outcome.error)
        return outcome.output
      }
      const answer = await route.answer(body, { call, place, adminToken: headerText(request.headers['x-admin-token']) })
      return reply.code(200).send(answer)
    } catch (thrown) {
      const error = thrown instanceof ToolCallFailed ? thrown.error : toErrorObject(thrown)
      known.errorCode = error.errorCode
      const failure = contractFailureOf(route, error, (failed) => httpStatusByCode[failed.errorCode])
      if (failure.retryAfterSeconds !== undefined) void reply.header('retry-after', String(failure.retryAfterSeconds))
      return reply
        .code(failure.status)
        .type('application/json; charset=utf-8')
        .send({ ...forCaller(error, request), error: failure.code })
    }
  }

  for (const route of routes) {
    const tool = byName.get(route.tool)
    if (tool !== undefined) app.post(route.path, (request, reply) => handle(tool, request, reply))
  }
  for (const route of contractRoutes) app.post(route.path, (request, reply) => handleContract(route, request, reply))
}

/** A tool's failure inside a contract route, carried out as the error object the tool answered. */
class ToolCallFailed extends Error {
  constructor(readonly error: ErrorObject) {
    super(error.message)
  }
}
