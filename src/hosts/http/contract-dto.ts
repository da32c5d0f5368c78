import type { z } from 'zod'
import { MkError } from '../../errors.js'
import { describeIssues } from '../../validation.js'

/**
 * A contract request as its schema reads it: the schema is strict, so every unknown key is named,
 * and each problem is phrased as the dispatcher phrases a tool's (path, expected, received).
 */
export function contractRequest<S extends z.ZodType>(schema: S, body: unknown, route: string): z.output<S> {
  const parsed = schema.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const problems = describeIssues(parsed.error.issues, body)
  const first = problems[0]?.message ?? 'invalid request'
  // The route is named as a word, never as a path: what a tenant is sent has its absolute paths replaced.
  throw new MkError(
    'INVALID_INPUT',
    `invalid ${route.split('/').pop() ?? 'memory'} request: ${first}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
    {
      details: { problems },
    },
  )
}

/**
 * The DTO whitelist (seed 002, rule B): what a contract route answers is its response schema's
 * output, and the schemas are plain (non-strict) objects, so a field the contract does not list is
 * dropped wherever it is, however the tool's output grows. A value of the wrong type is the
 * server's defect, answered as an internal error rather than sent.
 */
export function contractResponse<S extends z.ZodType>(schema: S, value: unknown, route: string): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const problems = describeIssues(parsed.error.issues, value)
  throw new MkError('INTERNAL_ERROR', `the answer of ${route} does not fit its contract: ${problems.map((problem) => problem.message).join('; ')}`)
}
