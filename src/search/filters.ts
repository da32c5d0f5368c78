import type { SearchFilters } from './types.js'

/** A SQL condition on `docs d` for the filters, with its parameters in order. */
export function filterClause(filters: SearchFilters | undefined): { sql: string; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  const oneOf = (column: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return
    clauses.push(values.length === 0 ? '0' : `d.${column} IN (${values.map(() => '?').join(', ')})`)
    params.push(...values)
  }
  if (filters?.kind !== undefined) {
    clauses.push('d.kind = ?')
    params.push(filters.kind)
  }
  oneOf('layer', filters?.layers)
  oneOf('source', filters?.sources)
  oneOf('type', filters?.types)
  oneOf('status', filters?.statuses)
  for (const tag of filters?.tags ?? []) {
    clauses.push('EXISTS (SELECT 1 FROM doc_tags t WHERE t.tag = ? AND t.doc = d.rowid)')
    params.push(tag)
  }
  // Fails closed: without a named consumer, no restricted memory matches (NULL never equals).
  clauses.push("(d.kind <> 'memory' OR d.meta IS NULL OR json_extract(d.meta, '$.ownerAgentId') = ? OR json_extract(d.meta, '$.ownerTeamId') = ?)")
  params.push(filters?.consumer?.agentId ?? null, filters?.consumer?.teamId ?? null)
  if (filters?.includeExpired !== true) {
    clauses.push('(d.expires_at IS NULL OR d.expires_at > ?)')
    params.push(filters?.now ?? Date.now())
  }
  return { sql: clauses.length === 0 ? '1' : clauses.join(' AND '), params }
}

/** filterClause's expiry condition, for an expiry already read (null or Infinity: never expires). */
export const unexpired = (expiresAt: number | null, now: number): boolean => expiresAt === null || expiresAt > now

export function hasNarrowingFilter(filters: SearchFilters | undefined): boolean {
  if (filters === undefined) return false
  return [filters.kind, filters.layers, filters.sources, filters.types, filters.statuses, filters.tags].some((value) => value !== undefined)
}
