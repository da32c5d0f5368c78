import type { Pool } from 'pg'
import { retryableOrSame } from './connection.js'

/**
 * The dimensions of the vectors pgvector indexes: the bundled model's. HNSW needs one dimension
 * per index; a tenant configured with another model keeps its vectors in replica memory.
 */
export const indexedDimensions = 512

/** How a database's vectors are searched: by pgvector's HNSW index, or in each replica's memory (no extension). */
export type VectorPath =
  | {
      kind: 'pgvector'
      /** The extension's version; iterative index scans (0.8 and newer) keep filtered searches from coming back short. */
      version: string
      iterativeScan: boolean
    }
  | { kind: 'replica-memory' }

/**
 * Migration 5. The extension is created when this role may (a superuser, a trusted install, or an
 * admin who created it before): then `vec` holds each document's vector as pgvector reads it, a
 * column generated from the stored bytes (so every write of `embedding`, and every row already
 * embedded, has it), under an HNSW index by cosine. When the extension cannot be created the
 * block ends there and vectors stay in replica memory. A database whose extension is installed
 * later gets the column from `pgvectorLater` at the next start.
 */
export const pgvectorMigration = `DO $mk$ BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS vector;
  EXCEPTION WHEN OTHERS THEN
    RETURN;
  END;
  EXECUTE ${dollarQuoted(columnSql())};
END $mk$;`

/** A later start on a database that had no extension at migration 5 but has one now: the same column and index, once. */
export const pgvectorLater = `DO $mk$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')
     AND NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'mk_documents'::regclass AND attname = 'vec' AND NOT attisdropped) THEN
    EXECUTE ${dollarQuoted(columnSql())};
  END IF;
END $mk$;`

function dollarQuoted(sql: string): string {
  return `$sql$${sql}$sql$`
}

/**
 * The float32 bytes of a stored vector (little-endian, as the replica writes them) as a real[],
 * decoded exactly with integer arithmetic: PostgreSQL has no cast from bytes to a float. Then the
 * generated column and the HNSW index. Rows already embedded are filled by the column's rewrite.
 */
function columnSql(): string {
  return `CREATE OR REPLACE FUNCTION mk_float4s(bytes bytea) RETURNS real[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT array_agg((CASE WHEN e = 0 THEN m * 2::float8 ^ (-149) ELSE (8388608 + m) * 2::float8 ^ (e - 150) END) * (1 - 2 * s) ORDER BY i)::real[] FROM (SELECT i, get_byte(bytes, 4 * i + 3) >> 7 AS s, ((get_byte(bytes, 4 * i + 3) & 127) << 1) | (get_byte(bytes, 4 * i + 2) >> 7) AS e, ((get_byte(bytes, 4 * i + 2) & 127) << 16) | (get_byte(bytes, 4 * i + 1) << 8) | get_byte(bytes, 4 * i) AS m FROM generate_series(0, octet_length(bytes) / 4 - 1) i) f';
ALTER TABLE mk_documents ADD COLUMN vec vector(${indexedDimensions}) GENERATED ALWAYS AS (CASE WHEN octet_length(embedding) = ${indexedDimensions * 4} THEN mk_float4s(embedding)::vector(${indexedDimensions}) END) STORED;
CREATE INDEX mk_documents_vec ON mk_documents USING hnsw (vec vector_cosine_ops);`
}

const paths = new WeakMap<Pool, Promise<VectorPath>>()

/** The database's vector path, asked once per pool (after migrating): pgvector when `mk_documents.vec` exists. */
export function vectorPath(pool: Pool): Promise<VectorPath> {
  let path = paths.get(pool)
  if (path === undefined) {
    path = (async (): Promise<VectorPath> => {
      try {
        const rows = await pool.query<{ version: string | null; vec: boolean }>(
          `SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version,
             EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('mk_documents') AND attname = 'vec' AND NOT attisdropped) AS vec`,
        )
        const found = rows.rows[0]
        if (found?.version == null || !found.vec) return { kind: 'replica-memory' }
        return { kind: 'pgvector', version: found.version, iterativeScan: atLeast(found.version, [0, 8]) }
      } catch (error) {
        throw retryableOrSame(error)
      }
    })()
    paths.set(pool, path)
    path.catch(() => paths.delete(pool))
  }
  return path
}

function atLeast(version: string, wanted: readonly number[]): boolean {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10))
  for (const [position, want] of wanted.entries()) {
    const have = parts[position] ?? 0
    if (have !== want) return have > want
  }
  return true
}

/**
 * The index's settings for one search of `limit` candidates, set for its transaction only: the
 * scan keeps `limit` candidates (at least 100: a search asks 100), and (pgvector 0.8+) goes on past
 * them until `limit` rows pass row-level security and the filters, in exact distance order. Not
 * more: pgvector prices an index scan by ef_search, and at 10,000 rows ef_search 400 made the
 * planner prefer reading every row (52 ms a query, against 2.5 ms through the index).
 */
export function searchSettings(path: VectorPath, limit: number): Record<string, string> {
  if (path.kind !== 'pgvector') return {}
  const settings: Record<string, string> = {
    'hnsw.ef_search': String(Math.min(1000, Math.max(100, limit))),
    // Planned for the tenant at hand: the planner reads the tenant's share of the rows (through mk.tenant)
    // and takes the index for a large tenant, a sort of its few rows for a small one. A generic plan,
    // cached per connection after five executions, would keep one tenant's choice for every tenant.
    plan_cache_mode: 'force_custom_plan',
  }
  if (path.iterativeScan) settings['hnsw.iterative_scan'] = 'strict_order'
  return settings
}

/** A vector as pgvector's text input. */
export const vectorLiteral = (vector: Float32Array): string => `[${Array.from(vector).join(',')}]`
