import type { FastifyRequest } from 'fastify'

/** What the log line of a request names, filled in as the request is understood. */
export interface RequestFacts {
  tool?: string
  tenant?: string
  agent?: string
  /** The identity fields an admin named that are not its own: the audit of acting for another agent or team. */
  actingFor?: Record<string, string>
  errorCode?: string
  /** Time the request's tool calls waited for a thread, and their threads took, in ms (summed over its calls). */
  waitedMs?: number
  ranMs?: number
}

/** Each request's facts, shared by the plugins that learn them and the one that logs them. */
export interface RequestFactsStore {
  /** The request's facts, created empty on first use, to fill in. */
  of(request: FastifyRequest): RequestFacts
  /** The request's facts as known so far, without recording any. */
  peek(request: FastifyRequest): RequestFacts
}

export function requestFactsStore(): RequestFactsStore {
  const facts = new WeakMap<FastifyRequest, RequestFacts>()
  return {
    of(request) {
      const known = facts.get(request) ?? {}
      facts.set(request, known)
      return known
    },
    peek: (request) => facts.get(request) ?? {},
  }
}
