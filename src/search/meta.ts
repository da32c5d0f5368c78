import type Database from 'better-sqlite3'
import { statement } from './statements.js'

// The index's two key-value tables: `meta` holds its own records (application, schema version,
// embedding model), `sync_state` the small bookkeeping values of its callers (freshness signatures).

export function readMeta(db: Database.Database, key: string): string | undefined {
  return (statement(db, 'SELECT value FROM meta WHERE key = ?', 'pluck').get(key) as string | undefined) ?? undefined
}

export function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
}

export function readState(db: Database.Database, key: string): string | undefined {
  return (statement(db, 'SELECT value FROM sync_state WHERE key = ?', 'pluck').get(key) as string | undefined) ?? undefined
}

/** A value written again unchanged is not written: a write waits for the lock, and every search looks at the files. */
export function writeState(db: Database.Database, key: string, value: string | undefined): void {
  if (readState(db, key) === value) return
  if (value === undefined) statement(db, 'DELETE FROM sync_state WHERE key = ?').run(key)
  else statement(db, 'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
}

export function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined
}
