import type { Pool } from 'pg'
import { MkError } from '../../errors.js'
import { retryableOrSame } from './connection.js'

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
    throw retryableOrSame(error)
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

/** SQLSTATE insufficient_privilege: the tables belong to a role this one is not (an admin made them on first use). */
const insufficientPrivilege = '42501'

/** A role refused the mk_ tables is told whose they are likely to be and how to hand them over, not shown an internal error. */
export function notOwnedOrSame(error: unknown): unknown {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== insufficientPrivilege) return error
  return new MkError(
    'FORBIDDEN',
    `this PostgreSQL role may not use mk's tables (${error.message}): another role made them, the first time it used the database`,
    {
      details: { hint: 'hand the mk_ tables to the role in the URL (docs/postgres.md, "The database role"), or connect as their owner' },
      cause: error,
    },
  )
}
