import type { FastifyInstance } from 'fastify'
import type { RequestFactsStore } from './request-facts.js'
import { requestLogLine, type RequestLogEntry } from './request-log.js'
import { atRoot } from './root-plugin.js'

export interface RequestLogPluginOptions {
  facts: RequestFactsStore
  /** Where the request log goes (stderr). */
  log: (line: string) => void
}

/** Every request carries its id (X-Request-Id) and ends in one log line naming what was learnt of it. */
export const requestLogPlugin = atRoot(async (app: FastifyInstance, options: RequestLogPluginOptions) => {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id)
  })

  app.addHook('onResponse', async (request, reply) => {
    const known = options.facts.peek(request)
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
      ...(known.waitedMs === undefined ? {} : { queue_ms: Math.round(known.waitedMs) }),
      ...(known.ranMs === undefined ? {} : { thread_ms: Math.round(known.ranMs) }),
    }
    options.log(requestLogLine(entry))
  })
})
