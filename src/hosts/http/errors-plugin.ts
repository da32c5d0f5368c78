import type { FastifyInstance } from 'fastify'
import { MkError, toErrorObject } from '../../errors.js'
import { maxJsonDepth, nestsDeeperThan } from './json-depth.js'
import { sendError } from './replies.js'
import type { RequestFactsStore } from './request-facts.js'
import { atRoot } from './root-plugin.js'

export interface ErrorsPluginOptions {
  maxBodyBytes: number
  facts: RequestFactsStore
}

function drained(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.once('end', resolve).once('close', resolve).once('error', resolve)
    stream.resume()
  })
}

/** JSON bodies in, the standard error object out: the body parser, the error handler and the answer to an unknown route. */
export const errorsPlugin = atRoot(async (app: FastifyInstance, options: ErrorsPluginOptions) => {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if (typeof text !== 'string' || text.trim() === '') return done(null, undefined)
    if (nestsDeeperThan(text, maxJsonDepth)) {
      const hint = 'send the tool input as the tool describes it; no tool input nests that deep'
      return done(
        new MkError('INVALID_INPUT', `the request body nests objects or arrays more than ${maxJsonDepth} levels deep`, { details: { field: '(body)', hint } }),
        undefined,
      )
    }
    try {
      done(null, JSON.parse(text) as unknown)
    } catch (error) {
      done(new MkError('INVALID_INPUT', `the request body is not JSON: ${(error as Error).message}`, { details: { field: '(body)' } }), undefined)
    }
  })

  app.setErrorHandler(async (thrown: Error & { statusCode?: number }, request, reply) => {
    // Fastify's own refusals (body too large, unsupported media type) are the caller's input errors.
    const error =
      thrown instanceof MkError
        ? toErrorObject(thrown)
        : thrown.statusCode === 413
          ? toErrorObject(
              new MkError('INVALID_INPUT', `the request body is larger than the server's limit of ${options.maxBodyBytes} bytes`, {
                details: {
                  field: '(body)',
                  limit_bytes: options.maxBodyBytes,
                  hint: 'send less in one call (split the document), or ask the operator to raise MK_SERVE_MAX_BODY_BYTES',
                },
              }),
            )
          : thrown.statusCode !== undefined && thrown.statusCode >= 400 && thrown.statusCode < 500
            ? toErrorObject(new MkError('INVALID_INPUT', thrown.message, { details: { field: '(body)' } }))
            : toErrorObject(new MkError('INTERNAL_ERROR', 'the server failed to handle the request'))
    options.facts.of(request).errorCode = error.errorCode
    // A body refused before it was read is read and dropped before the answer, so the client, still sending it, receives the 413 instead of a broken pipe.
    if (thrown.statusCode === 413 && !request.raw.readableEnded) await drained(request.raw)
    return sendError(reply, error, thrown.statusCode === 413 || thrown.statusCode === 415 ? thrown.statusCode : undefined)
  })

  app.setNotFoundHandler(async (request, reply) => {
    options.facts.of(request).errorCode = 'NOT_FOUND'
    return sendError(
      reply,
      toErrorObject(
        new MkError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0] ?? ''}`, { details: { hint: 'GET /openapi.json lists every route' } }),
      ),
    )
  })
})
