import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'
import { readMeta } from './meta.js'
import { schemaVersion } from './schema.js'
import type { IndexStats } from './types.js'
import { pendingCount } from './vector-store.js'

export function indexStats(db: Database.Database, path: string): IndexStats {
  const counts = db
    .prepare(
      "SELECT count(*) AS documents, sum(kind = 'memory') AS memories, sum(kind = 'knowledge') AS knowledge, sum(kind = 'directive') AS directives FROM docs",
    )
    .get() as {
    documents: number
    memories: number | null
    knowledge: number | null
    directives: number | null
  }
  const dimensions = readMeta(db, 'dimensions')
  let sizeBytes = 0
  for (const file of [path, `${path}-wal`]) {
    try {
      sizeBytes += statSync(file).size
    } catch {
      // No WAL file at the moment.
    }
  }
  return {
    documents: counts.documents,
    memories: counts.memories ?? 0,
    knowledge: counts.knowledge ?? 0,
    directives: counts.directives ?? 0,
    pending: pendingCount(db),
    modelId: readMeta(db, 'model_id'),
    dimensions: dimensions === undefined ? undefined : Number(dimensions),
    schemaVersion,
    sizeBytes,
  }
}
