import type { FastifyInstance } from 'fastify'
import { MkError, toErrorObject, type ErrorObject } from '../../errors.js'
import { sendError } from './replies.js'
import { atRoot } from './root-plugin.js'

export type Readiness = { ready: true } | { ready: false; error: ErrorObject }

/** What the server's lifecycle has reached: shutting down, and whether the warm-up is done (undefined while starting). */
export interface ServerState {
  closing: boolean
  readiness: Readiness | undefined
  /** What /readyz says of the store (files, or the database, which it asks each time); throws UNAVAILABLE when it cannot be reached. */
  storeStatus?: (() => Promise<Record<string, unknown>>) | undefined
}

/** Once the server is closing, every new request is refused with 503. */
export const shutdownPlugin = atRoot(async (app: FastifyInstance, state: ServerState) => {
  app.addHook('onRequest', async (_request, reply) => {
    if (state.closing)
      return sendError(
        reply,
        toErrorObject(new MkError('UNAVAILABLE', 'the server is shutting down', { details: { hint: 'retry against the restarted server' } })),
      )
    return undefined
  })
})
