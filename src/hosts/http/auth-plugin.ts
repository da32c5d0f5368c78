import type { FastifyInstance, FastifyRequest } from 'fastify'
import { toErrorObject, type ErrorObject } from '../../errors.js'
import type { Authenticator } from './auth.js'
import type { CallerIdentity } from './identity.js'
import { headerText, sendError } from './replies.js'
import type { RequestFactsStore } from './request-facts.js'
import { atRoot } from './root-plugin.js'

/** Who each request's credential identified (undefined: no credential, with auth off). */
export type CallerStore = WeakMap<FastifyRequest, CallerIdentity | undefined>

export interface AuthPluginOptions {
  auth: Authenticator
  callers: CallerStore
  facts: RequestFactsStore
  /** The error as the caller may see it (without server paths). */
  forCaller: (error: ErrorObject, request: FastifyRequest) => ErrorObject
}

/** Identifies the caller once, from X-Api-Key or Authorization, before the routes of the context it is registered in. */
export const authPlugin = atRoot(async (app: FastifyInstance, options: AuthPluginOptions) => {
  app.addHook('preHandler', async (request, reply) => {
    try {
      const identity = await options.auth.identify({
        apiKey: headerText(request.headers['x-api-key']),
        authorization: headerText(request.headers.authorization),
      })
      if (identity?.agentId !== undefined) options.facts.of(request).agent = identity.agentId
      options.callers.set(request, identity)
      return undefined
    } catch (thrown) {
      const error = toErrorObject(thrown)
      options.facts.of(request).errorCode = error.errorCode
      return sendError(reply, options.forCaller(error, request))
    }
  })
})
