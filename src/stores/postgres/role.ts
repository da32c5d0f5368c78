import type { Pool } from 'pg'
import { unavailableOrSame } from './connection.js'

/** The role the store connects as, and whether row-level security binds it (a superuser or a BYPASSRLS role is never bound). */
export interface ConnectionRole {
  role: string
  rls: 'enforced' | 'bypassed'
}

export async function connectionRole(pool: Pool): Promise<ConnectionRole> {
  try {
    const rows = await pool.query<{ role: string; rolsuper: boolean; rolbypassrls: boolean }>(
      'SELECT current_user AS role, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user',
    )
    const row = rows.rows[0]
    return { role: row?.role ?? 'unknown', rls: row !== undefined && (row.rolsuper || row.rolbypassrls) ? 'bypassed' : 'enforced' }
  } catch (error) {
    throw unavailableOrSame(error)
  }
}

/** What an operator is told when the role bypasses row-level security, and how to fix it. */
export function bypassWarning(role: string): string {
  return (
    `the PostgreSQL role "${role}" is a superuser or has BYPASSRLS, so row-level security does not apply to it and ` +
    "nothing in the database keeps one tenant's rows from another's. Connect as a plain role instead: " +
    'make a login role that is neither (CREATE ROLE mk LOGIN NOSUPERUSER NOBYPASSRLS), give it the database and its mk_ tables, and put it in the URL (docs/postgres.md, "The database role")'
  )
}
