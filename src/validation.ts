import type { z } from 'zod'

/** One invalid field, phrased so a person or a model can correct it. */
export interface FieldProblem {
  path: string
  expected: string
  received: string
  message: string
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return `an ${typeof value}`
}

export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)'
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('')
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'too_small':
      return issue.origin === 'string'
        ? `at least ${String(issue.minimum)} characters`
        : issue.origin === 'array'
          ? `at least ${String(issue.minimum)} items`
          : `${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`
    case 'too_big':
      return issue.origin === 'string'
        ? `at most ${String(issue.maximum)} characters`
        : issue.origin === 'array'
          ? `at most ${String(issue.maximum)} items`
          : `${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`
    case 'unrecognized_keys':
      return `no other keys (unknown: ${issue.keys.join(', ')})`
    case 'invalid_format':
      return issue.format === 'regex' ? issue.message : `a ${issue.format}`
    default:
      return issue.message
  }
}

/**
 * A union failure carries one list of issues per alternative, with paths relative to
 * the union; the alternative with the fewest issues, and then the deepest, is the one the author meant.
 */
function flattenUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue]
    const depth = (branch: readonly z.core.$ZodIssue[]): number => Math.max(0, ...branch.map((inner) => inner.path.length))
    // Fewest problems first; on a tie, the alternative that got further into the value.
    const closest = [...issue.errors].sort((a, b) => a.length - b.length || depth(b) - depth(a))[0] ?? []
    return flattenUnions(closest.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue))
  })
}

/** One issue per unknown key, so each problem names its key (`a`, `b`), never `(root)`. */
function eachUnknownKey(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'unrecognized_keys' || issue.keys.length < 2) return [issue]
  return issue.keys.map((key) => ({ ...issue, keys: [key] }))
}

/** Turn zod issues into field problems, reading the received value from the input itself. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): FieldProblem[] {
  return flattenUnions(issues)
    .flatMap(eachUnknownKey)
    .map((issue) => {
      const keyPath = issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? [...issue.path, issue.keys[0] as string] : issue.path
      const received = issue.code === 'unrecognized_keys' ? 'an unknown key' : describeValue(valueAt(input, issue.path))
      const expected = issue.code === 'unrecognized_keys' ? 'no such key' : expectedOf(issue)
      const path = formatPath(keyPath)
      return { path, expected, received, message: `${path}: expected ${expected}, received ${received}` }
    })
}
