import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RuntimeEnv } from '../../config/workspace.js'
import { MkError, toErrorObject, type ErrorObject } from '../../errors.js'
import { importPackage } from '../../import-package.js'
import type { AnyTool } from '../../tools/define.js'
import { requireRoleAllows } from '../../tools/roles.js'
import { contextTextOf, httpRoutes, httpStatusByCode, outcomeMediaType, type HttpRoute } from './routes.js'
import { inputJsonSchema } from '../../tools/generate/json-schema.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import type { Authenticator } from './auth.js'
import { callKindOf, type CallScheduler } from './call-scheduler.js'
import { provenCaller, resolveTenant, withIdentity } from './caller-input.js'
import type { CallerIdentity } from './identity.js'
import type { QuotaClass, TenantQuotas } from './quotas.js'
import { requestLogLine, type RequestLogEntry } from './request-log.js'
import type { ServeLimits } from './serve-limits.js'
import { errorForTenant, warningsForTenant } from './tenant-errors.js'

export interface HttpAppOptions {
  tools: readonly AnyTool[]
  /** Runs each call on a tool thread, in its tenant's turn. */
  calls: CallScheduler
  limits: Pick<ServeLimits, 'maxBodyBytes' | 'heavyBodyBytes'>
  /** Where a tenant's workspace and MK_HOME are, so what a caller is sent names them relatively. */
  placesOf: (tenantId: string) => TenantPlaces
  /** The server's runtime (read-only mode, admin token); the agent and team come from each caller's credential. */
  runtime: RuntimeEnv
  auth: Authenticator
  quotas: TenantQuotas
  /** GET /openapi.json, as generated from the registry. */
  openApi: string
  /** Where the request log goes (stderr). */
  log: (line: string) => void
  /**
   * On the local socket only (mode 0600, the same user): the CLI's own agent,
   * team and session arrive as X-Mk-Agent-Id, X-Mk-Team-Id and X-Mk-Session-Id,
   * so a call answers as it would have in the CLI's process.
   */
  callerRuntimeHeaders: boolean
}

export interface HttpApp {
  fastify: FastifyInstance
  /** Readiness as GET /readyz reports it: undefined while starting, else the warm-up's outcome. */
  setReadiness(readiness: { ready: true } | { ready: false; error: ErrorObject }): void
  /** Refuses new requests with 503, waits for those in flight, then closes every tenant's index and model. */
  close(): Promise<void>
}

/** What the log line of a request names, filled in as the request is understood. */
interface RequestFacts {
  tool?: string
  tenant?: string
  agent?: string
  /** The identity fields an admin named that are not its own: the audit of acting for another agent or team. */
  actingFor?: Record<string, string>
  errorCode?: string
}

function quotaClassOf(tool: AnyTool, input: Record<string, unknown>): QuotaClass {
  if (tool.tier !== 'read_only') return 'write'
  return input.return_debug === true ? 'debug' : 'recall'
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The standard error object with the status of its code; `status` only where HTTP has a more exact one (413, 415). */
function sendError(reply: FastifyReply, error: ErrorObject, status = httpStatusByCode[error.errorCode]): FastifyReply {
  const retryAfter = error.details?.retry_after_s
  if (status === 429 && typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter))
  return reply.code(status).type('application/json; charset=utf-8').send(error)
}

function drained(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.once('end', resolve).once('close', resolve).once('error', resolve)
    stream.resume()
  })
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>
  throw new MkError('INVALID_INPUT', 'the request body must be a JSON object (the tool input)', {
    details: { problems: [{ path: '(root)', expected: 'object', received: Array.isArray(body) ? 'array' : typeof body, message: 'expected a JSON object' }] },
  })
}

/** The server: one route per offered tool plus the contract's aliases, every call through the same dispatcher as the CLI and MCP. */
export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const { fastify: createFastify } = await importPackage<typeof import('fastify')>('fastify')
  const app = createFastify({ logger: false, bodyLimit: options.limits.maxBodyBytes, genReqId: () => randomUUID(), return503OnClosing: false })
  const facts = new WeakMap<FastifyRequest, RequestFacts>()
  const factsOf = (request: FastifyRequest): RequestFacts => {
    const known = facts.get(request) ?? {}
    facts.set(request, known)
    return known
  }
  let closing = false
  let readiness: { ready: true } | { ready: false; error: ErrorObject } | undefined

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if (typeof text !== 'string' || text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text) as unknown)
    } catch (error) {
      done(new MkError('INVALID_INPUT', `the request body is not JSON: ${(error as Error).message}`, { details: { field: '(body)' } }), undefined)
    }
  })

  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id)
    if (closing)
      return sendError(
        reply,
        toErrorObject(new MkError('UNAVAILABLE', 'the server is shutting down', { details: { hint: 'retry against the restarted server' } })),
      )
    return undefined
  })

  app.addHook('onResponse', async (request, reply) => {
    const known = facts.get(request) ?? {}
    const entry: RequestLogEntry = {
      request_id: request.id,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0] ?? '',
      ...(known.tool === undefined ? {} : { tool: known.tool }),
      ...(known.tenant === undefined ? {} : { tenant: known.tenant }),
      ...(known.agent === undefined ? {} : { agent: known.agent }),
      ...(known.actingFor === undefined ? {} : { acting_for: known.actingFor }),
      status: reply.statusCode,
      ...(known.errorCode === undefined ? {} : { error_code: known.errorCode }),
      duration_ms: Math.round(reply.elapsedTime),
    }
    options.log(requestLogLine(entry))
  })

  app.setErrorHandler(async (thrown: Error & { statusCode?: number }, request, reply) => {
    // Fastify's own refusals (body too large, unsupported media type) are the caller's input errors.
    const error =
      thrown instanceof MkError
        ? toErrorObject(thrown)
        : thrown.statusCode === 413
          ? toErrorObject(
              new MkError('INVALID_INPUT', `the request body is larger than the server's limit of ${options.limits.maxBodyBytes} bytes`, {
                details: {
                  field: '(body)',
                  limit_bytes: options.limits.maxBodyBytes,
                  hint: 'send less in one call (split the document), or ask the operator to raise MK_SERVE_MAX_BODY_BYTES',
                },
              }),
            )
          : thrown.statusCode !== undefined && thrown.statusCode >= 400 && thrown.statusCode < 500
            ? toErrorObject(new MkError('INVALID_INPUT', thrown.message, { details: { field: '(body)' } }))
            : toErrorObject(new MkError('INTERNAL_ERROR', 'the server failed to handle the request'))
    factsOf(request).errorCode = error.errorCode
    // A body refused before it was read is read and dropped before the answer, so the client, still sending it, receives the 413 instead of a broken pipe.
    if (thrown.statusCode === 413 && !request.raw.readableEnded) await drained(request.raw)
    return sendError(reply, error, thrown.statusCode === 413 || thrown.statusCode === 415 ? thrown.statusCode : undefined)
  })

  app.setNotFoundHandler(async (request, reply) => {
    factsOf(request).errorCode = 'NOT_FOUND'
    return sendError(
      reply,
      toErrorObject(
        new MkError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0] ?? ''}`, { details: { hint: 'GET /openapi.json lists every route' } }),
      ),
    )
  })

  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (_request, reply) => {
    if (readiness === undefined)
      return sendError(reply, toErrorObject(new MkError('UNAVAILABLE', 'the server is still warming up (opening the index, loading the model)')))
    if (!readiness.ready) return sendError(reply, readiness.error)
    return { status: 'ready' }
  })
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(options.openApi))

  const byName = new Map(options.tools.map((tool) => [tool.name, tool]))
  const inputFields = new Map(options.tools.map((tool) => [tool.name, new Set(Object.keys((inputJsonSchema(tool).properties ?? {}) as object))]))

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
    const known = factsOf(request)
    known.tool = tool.name
    // What a remote caller is sent names no server path; the local socket's caller is the server's own user.
    let places: TenantPlaces | undefined
    const forCaller = (error: ErrorObject): ErrorObject => (options.callerRuntimeHeaders ? error : errorForTenant(error, places, request.id, options.log))
    try {
      const identity: CallerIdentity | undefined = await options.auth.identify({
        apiKey: headerText(request.headers['x-api-key']),
        authorization: headerText(request.headers.authorization),
      })
      if (identity?.agentId !== undefined) known.agent = identity.agentId
      const { tenant_id: bodyTenant, ...body } = bodyObject(request.body)
      const tenantId = resolveTenant(bodyTenant, headerText(request.headers['x-tenant-id']), identity)
      known.tenant = tenantId
      // The role first: a caller that may not call the tool learns nothing from how its identity fields would be judged.
      requireRoleAllows(tool, provenCaller(identity))
      const { input, actingFor } = withIdentity(body, identity, inputFields.get(tool.name) ?? new Set())
      if (actingFor.length > 0) known.actingFor = Object.fromEntries(actingFor.map((entry) => [entry.field, entry.value]))
      options.quotas.take(tenantId, quotaClassOf(tool, input))
      places = options.placesOf(tenantId)
      const bodyBytes = Number(request.headers['content-length'] ?? 0) || 0
      const outcome = await options.calls.run(
        { tool: tool.name, tenantId, input, runtime: runtimeOf(request, identity) },
        callKindOf(tool, bodyBytes, options.limits.heavyBodyBytes),
      )
      if (!outcome.ok) {
        known.errorCode = outcome.error.errorCode
        return sendError(reply, forCaller(outcome.error))
      }
      const warnings = options.callerRuntimeHeaders ? outcome.warnings : warningsForTenant(outcome.warnings, places)
      if (outcome.exitCode !== 0) void reply.header('x-mk-exit-code', String(outcome.exitCode))
      const output = route.view === 'context_text' ? contextTextOf(outcome.output) : outcome.output
      if (headerText(request.headers.accept)?.includes(outcomeMediaType) === true) {
        return reply.code(200).type(outcomeMediaType).send({ output, display: outcome.display, exitCode: outcome.exitCode, warnings })
      }
      return reply.code(200).send(output)
    } catch (thrown) {
      const error = toErrorObject(thrown)
      known.errorCode = error.errorCode
      return sendError(reply, forCaller(error))
    }
  }

  for (const route of httpRoutes(options.tools.map((tool) => tool.name))) {
    const tool = byName.get(route.tool)
    if (tool !== undefined) app.post(route.path, (request, reply) => handle(route, tool, request, reply))
  }

  return {
    fastify: app,
    setReadiness(value) {
      readiness = value
    },
    async close() {
      closing = true
      await app.close()
      await options.calls.close()
    },
  }
}
