import type Database from 'better-sqlite3'
import { loadVectorFunctions } from './open-database.js'

type Shape = 'rows' | 'pluck' | 'raw'

/** Statements kept per connection: preparing one costs more than running it on a small index. */
const kept = new WeakMap<Database.Database, Map<string, Database.Statement>>()
/** Statements whose SQL carries a filter's shape (how many sources, tags) vary; past this many a connection starts over. */
const mostKept = 200

/**
 * The statement for this SQL on this connection, prepared on first use. `shape` is fixed per
 * statement (pluck and raw change how a statement returns rows), so it is part of the key.
 */
export function statement(db: Database.Database, sql: string, shape: Shape = 'rows'): Database.Statement {
  let statements = kept.get(db)
  if (statements === undefined) {
    statements = new Map()
    kept.set(db, statements)
  }
  const key = `${shape}\u0000${sql}`
  const existing = statements.get(key)
  if (existing !== undefined) return existing
  if (statements.size >= mostKept) statements.clear()
  // sqlite-vec's functions (vec_distance_cosine) are loaded by the first statement that calls one.
  if (sql.includes('vec_')) loadVectorFunctions(db)
  const prepared = db.prepare(sql)
  if (shape === 'pluck') prepared.pluck()
  if (shape === 'raw') prepared.raw()
  statements.set(key, prepared)
  return prepared
}
