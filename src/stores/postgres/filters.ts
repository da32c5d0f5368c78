import type { SearchFilters } from '../../search/types.js'

/**
 * The condition of src/search/filters.ts on `mk_documents d`, in PostgreSQL's dialect, with its
 * parameters appended to `params` (numbered after those already there).
 */
export function filterCondition(filters: SearchFilters | undefined, params: unknown[]): string {
  const clauses: string[] = []
  const param = (value: unknown): string => {
    params.push(value)
    return `$${params.length}`
  }
  const oneOf = (column: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return
    clauses.push(values.length === 0 ? 'false' : `d.${column} = ANY(${param([...values])}::text[])`)
  }
  if (filters?.kind !== undefined) clauses.push(`d.kind = ${param(filters.kind)}`)
  oneOf('layer', filters?.layers)
  oneOf('source', filters?.sources)
  oneOf('type', filters?.types)
  oneOf('status', filters?.statuses)
  if (filters?.tags !== undefined && filters.tags.length > 0) clauses.push(`d.tags @> ${param([...filters.tags])}::text[]`)
  // Fails closed: without a named consumer, no restricted memory matches (NULL never equals).
  const agent = param(filters?.consumer?.agentId ?? null)
  const team = param(filters?.consumer?.teamId ?? null)
  clauses.push(
    `(d.kind <> 'memory' OR d.meta IS NULL OR (d.meta::jsonb ->> 'ownerAgentId') = ${agent}::text OR (d.meta::jsonb ->> 'ownerTeamId') = ${team}::text)`,
  )
  if (filters?.includeExpired !== true) clauses.push(`(d.expires_at IS NULL OR d.expires_at > ${param(filters?.now ?? Date.now())}::bigint)`)
  return clauses.join(' AND ')
}
