import type { FastifyInstance } from 'fastify'
import { MkError, toErrorObject } from '../../errors.js'
import { sendError } from './replies.js'
import type { ServerState } from './shutdown-plugin.js'

/** GET /healthz (the process serves requests) and GET /readyz (the warm-up is done and succeeded). */
export async function probesPlugin(app: FastifyInstance, state: ServerState): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (_request, reply) => {
    if (state.readiness === undefined)
      return sendError(reply, toErrorObject(new MkError('UNAVAILABLE', 'the server is still warming up (opening the index, loading the model)')))
    if (!state.readiness.ready) return sendError(reply, state.readiness.error)
    if (state.storeStatus === undefined) return { status: 'ready' }
    try {
      return { status: 'ready', store: await state.storeStatus() }
    } catch (error) {
      // A database that went away makes the replica not ready (503), until it answers again.
      return sendError(reply, toErrorObject(error))
    }
  })
}
