import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RuntimeEnv } from '../../config/workspace.js'
import { toErrorObject, type ErrorObject } from '../../errors.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import type { AnyTool } from '../../tools/define.js'
import { inputJsonSchema } from '../../tools/generate/json-schema.js'
import type { Authenticator } from './auth.js'
import { authPlugin, type CallerStore } from './auth-plugin.js'
import { admitCall } from './call-admission.js'
import { callKindOf, type CallScheduler } from './call-scheduler.js'
import { provenCaller } from './caller-input.js'
import type { CallerIdentity } from './identity.js'
import type { TenantQuotas } from './quotas.js'
import { headerText, sendError } from './replies.js'
import type { RequestFactsStore } from './request-facts.js'
import { contextTextOf, httpRoutes, outcomeMediaType, type HttpRoute } from './routes.js'
import type { ServeLimits } from './serve-limits.js'
import { errorForTenant, warningsForTenant } from './tenant-errors.js'

export interface ToolRoutesPluginOptions {
  tools: readonly AnyTool[]
  calls: CallScheduler
  limits: Pick<ServeLimits, 'heavyBodyBytes'>
  placesOf: (tenantId: string) => TenantPlaces
  runtime: RuntimeEnv
  auth: Authenticator
  quotas: TenantQuotas
  log: (line: string) => void
  callerRuntimeHeaders: boolean
  facts: RequestFactsStore
}

/** POST one route per offered tool plus the contract's aliases, each call through the same dispatcher as the CLI and MCP. */
export async function toolRoutesPlugin(app: FastifyInstance, options: ToolRoutesPluginOptions): Promise<void> {
  const routes = httpRoutes(options.tools.map((tool) => tool.name))
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]))
  const toolOfPath = new Map(routes.map((route) => [route.path, route.tool]))
  const inputFields = new Map(options.tools.map((tool) => [tool.name, new Set(Object.keys((inputJsonSchema(tool).properties ?? {}) as object))]))
  const callers: CallerStore = new WeakMap()
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

  const handle = async (route: HttpRoute, tool: AnyTool, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const known = options.facts.of(request)
    try {
      const identity = callers.get(request)
      const { tenantId, input } = admitCall(
        {
          tool,
          body: request.body,
          headerTenant: headerText(request.headers['x-tenant-id']),
          identity,
          inputFields: inputFields.get(tool.name) ?? new Set(),
          quotas: options.quotas,
        },
        known,
      )
      const tenantPlaces = options.placesOf(tenantId)
      places.set(request, tenantPlaces)
      const bodyBytes = Number(request.headers['content-length'] ?? 0) || 0
      const outcome = await options.calls.run(
        { tool: tool.name, tenantId, input, runtime: runtimeOf(request, identity) },
        callKindOf(tool, bodyBytes, options.limits.heavyBodyBytes),
      )
      if (!outcome.ok) {
        known.errorCode = outcome.error.errorCode
        return sendError(reply, forCaller(outcome.error, request))
      }
      const warnings = options.callerRuntimeHeaders ? outcome.warnings : warningsForTenant(outcome.warnings, tenantPlaces)
      if (outcome.exitCode !== 0) void reply.header('x-mk-exit-code', String(outcome.exitCode))
      const output = route.view === 'context_text' ? contextTextOf(outcome.output) : outcome.output
      if (headerText(request.headers.accept)?.includes(outcomeMediaType) === true) {
        return reply.code(200).type(outcomeMediaType).send({ output, display: outcome.display, exitCode: outcome.exitCode, warnings })
      }
      return reply.code(200).send(output)
    } catch (thrown) {
      const error = toErrorObject(thrown)
      known.errorCode = error.errorCode
      return sendError(reply, forCaller(error, request))
    }
  }

  for (const route of routes) {
    const tool = byName.get(route.tool)
    if (tool !== undefined) app.post(route.path, (request, reply) => handle(route, tool, request, reply))
  }
}
