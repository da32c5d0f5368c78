import type Database from 'better-sqlite3'
import { tableExists } from './meta.js'

/**
 * Why the database is damaged, or undefined when SQLite finds every page sound. `quick_check`
 * walks every b-tree (the vector table's included) without reading the whole
 * file twice as `integrity_check` does; a scan of the vector table catches what it cannot.
 */
export function integrityProblem(db: Database.Database): string | undefined {
  try {
    const found = (db.pragma('quick_check(5)') as { quick_check: string }[]).map((row) => row.quick_check).filter((line) => line !== 'ok')
    if (found.length > 0) return found.join('; ')
    if (tableExists(db, 'vectors')) db.prepare('SELECT count(*) FROM vectors').pluck().get()
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}
