import type { FastifyReply } from 'fastify'
import type { ErrorObject } from '../../errors.js'
import { httpStatusByCode } from './routes.js'

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The standard error object with the status of its code; `status` only where HTTP has a more exact one (413, 415). */
export function sendError(reply: FastifyReply, error: ErrorObject, status = httpStatusByCode[error.errorCode]): FastifyReply {
  const retryAfter = error.details?.retry_after_s
  if (status === 429 && typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter))
  return reply.code(status).type('application/json; charset=utf-8').send(error)
}
