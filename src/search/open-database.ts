import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { pidAlive } from '../fs/process-liveness.js'
import { applicationTag, createTables, schemaVersion } from './schema.js'

export interface OpenedDatabase {
  db: Database.Database
  /** Why the file on disk was thrown away and recreated, when it was. */
  rebuiltBecause: string | undefined
}

const sqliteMagic = 'SQLite format 3\u0000'

/**
 * A cheap check that needs no query: the header says how many pages the database has,
 * and a file shorter than that was truncated (a copy cut short, a full disk).
 */
function headerProblem(path: string): string | undefined {
  const size = statSync(path).size
  // A file another process has just created and not yet written is a new index, not a broken one.
  if (size === 0) return undefined
  if (size < 100) return 'truncated'
  const header = Buffer.alloc(100)
  const fd = openSync(path, 'r')
  try {
    readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  if (header.toString('latin1', 0, 16) !== sqliteMagic) return 'not a SQLite database'
  const rawPageSize = header.readUInt16BE(16)
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize
  const pageCountValid = header.readUInt32BE(24) === header.readUInt32BE(92)
  const pageCount = header.readUInt32BE(28)
  if (pageCountValid && size < pageCount * pageSize) return 'truncated'
  return undefined
}

function configure(db: Database.Database): void {
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 15000')
  db.pragma('synchronous = NORMAL')
  // Vector search reads every vector; through mmap that costs about half as much as copying pages into SQLite's cache.
  db.pragma('mmap_size = 1073741824')
}

const withVectorFunctions = new WeakSet<Database.Database>()

// Required when first used, not imported: resolving the package through its exports map sets up
// Node's ES module resolver, 3 ms of every start that opens the index.
const require = createRequire(import.meta.url)
type SqliteVec = typeof import('sqlite-vec')

/**
 * Loads sqlite-vec's functions into a connection the first time one of its statements needs
 * them (src/search/statements.ts): loading the extension cost 2-3 ms of CPU, more on a busy
 * disk, at every start of a command that opens the index, and most (memory add, a full-text
 * search, a search answered by the vectors held in memory) never call them.
 */
export function loadVectorFunctions(db: Database.Database): void {
  if (withVectorFunctions.has(db)) return
  ;(require('sqlite-vec') as SqliteVec).load(db)
  withVectorFunctions.add(db)
}

/** Returns why the database is not a usable mk index of this version, or undefined when it is. */
function schemaProblem(db: Database.Database): string | undefined {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]
  if (tables.length === 0) return undefined
  if (!tables.includes('meta')) return 'not an mk index'
  const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((row) => [row.key, row.value]))
  if (meta.size === 0) return undefined
  if (meta.get('application') !== applicationTag) return 'not an mk index'
  const version = Number(meta.get('schema_version'))
  if (version !== schemaVersion) return `schema version ${String(meta.get('schema_version'))}, expected ${schemaVersion}`
  return undefined
}

function initialise(db: Database.Database): void {
  db.transaction(() => {
    db.exec(createTables)
    const insert = db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)')
    insert.run('application', applicationTag)
    insert.run('schema_version', String(schemaVersion))
  }).immediate()
}

function removeDatabaseFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true })
}

function tryOpen(path: string): { db: Database.Database; problem: string | undefined } {
  const problem = existsSync(path) ? headerProblem(path) : undefined
  if (problem !== undefined) return { db: new Database(':memory:'), problem }
  const db = new Database(path)
  try {
    configure(db)
    const schema = schemaProblem(db)
    if (schema !== undefined) return { db, problem: schema }
    initialise(db)
    return { db, problem: undefined }
  } catch (error) {
    return { db, problem: `unreadable (${(error as Error).message})` }
  }
}

/** Open the index database, recreating it empty when the file is corrupt, truncated, foreign or of another schema version. */
export function openDatabase(path: string): OpenedDatabase {
  mkdirSync(dirname(path), { recursive: true })
  const first = tryOpen(path)
  if (first.problem === undefined) return { db: first.db, rebuiltBecause: undefined }
  first.db.close()
  return { db: recreateDatabase(path), rebuiltBecause: first.problem }
}

/** Where a rebuild writes the new database before it is swapped in; the pid tells a live rebuild from a dead one's leftovers. */
export function rebuildPathOf(path: string): string {
  return `${path}.rebuild-${process.pid}`
}

/** Remove what rebuilds killed half-way left beside the index. */
export function removeAbandonedRebuilds(path: string): void {
  const prefix = `${basename(path)}.rebuild-`
  let names: string[]
  try {
    names = readdirSync(dirname(path))
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const pid = Number.parseInt(name.slice(prefix.length), 10)
    if (Number.isInteger(pid) && pid !== process.pid && !pidAlive(pid)) rmSync(join(dirname(path), name), { force: true })
  }
}

/**
 * Put a finished database file in the index's place. The new file was closed out of WAL mode,
 * so it is whole on its own; the old file's WAL and shared memory go with it. A reader that
 * still has the old file open keeps reading it until it opens the index again.
 */
export function swapInDatabase(newPath: string, path: string): void {
  for (const file of [`${path}-wal`, `${path}-shm`]) rmSync(file, { force: true })
  renameSync(newPath, path)
}

/** Take a database out of WAL mode and close it, so its file alone holds everything. */
export function closeWhole(db: Database.Database): void {
  db.pragma('journal_mode = DELETE')
  db.close()
}

/** Delete the database files and start an empty index in their place. */
function recreateDatabase(path: string): Database.Database {
  removeDatabaseFiles(path)
  const db = new Database(path)
  configure(db)
  initialise(db)
  return db
}
