import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { RuntimeEnv } from '../../config/workspace.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import { importPackage } from '../../import-package.js'
import type { AnyTool } from '../../tools/define.js'
import type { Authenticator } from './auth.js'
import type { CallScheduler } from './call-scheduler.js'
import { errorsPlugin } from './errors-plugin.js'
import { openApiPlugin } from './openapi-plugin.js'
import { probesPlugin } from './probes-plugin.js'
import type { TenantQuotas } from './quotas.js'
import { requestFactsStore } from './request-facts.js'
import { requestLogPlugin } from './request-log-plugin.js'
import type { ServeLimits } from './serve-limits.js'
import { shutdownPlugin, type Readiness, type ServerState } from './shutdown-plugin.js'
import { toolRoutesPlugin } from './tool-routes-plugin.js'
import { uiPlugin } from './ui-plugin.js'

export interface HttpAppOptions {
  tools: readonly AnyTool[]
  /** Runs each call on a tool thread, in its tenant's turn. */
  calls: CallScheduler
  limits: Pick<ServeLimits, 'maxBodyBytes' | 'heavyBodyBytes'>
  /** Where a tenant's workspace and MK_HOME are, so what a caller is sent names them relatively. */
  placesOf: (tenantId: string, scope: string) => TenantPlaces
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
  /** What /readyz says of the store: its kind, and a database's place, schema and vector path. */
  storeStatus?: (() => Promise<Record<string, unknown>>) | undefined
}

export interface HttpApp {
  fastify: FastifyInstance
  /** Readiness as GET /readyz reports it: undefined while starting, else the warm-up's outcome. */
  setReadiness(readiness: Readiness): void
  /** Refuses new requests with 503, waits for those in flight, then closes every tenant's index and model. */
  close(): Promise<void>
}

/** The server: the plugins of one purpose each, registered in the order a request meets them. */
export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const { fastify: createFastify } = await importPackage<typeof import('fastify')>('fastify')
  const app = createFastify({ logger: false, bodyLimit: options.limits.maxBodyBytes, genReqId: () => randomUUID(), return503OnClosing: false })
  const facts = requestFactsStore()
  const state: ServerState = { closing: false, readiness: undefined, storeStatus: options.storeStatus }

  await app.register(errorsPlugin, { maxBodyBytes: options.limits.maxBodyBytes, facts })
  await app.register(requestLogPlugin, { facts, log: options.log })
  await app.register(shutdownPlugin, state)
  await app.register(probesPlugin, state)
  await app.register(openApiPlugin, { openApi: options.openApi })
  await app.register(toolRoutesPlugin, { ...options, facts })
  await app.register(uiPlugin, options)

  return {
    fastify: app,
    setReadiness(value) {
      state.readiness = value
    },
    async close() {
      state.closing = true
      await app.close()
      await options.calls.close()
    },
  }
}
