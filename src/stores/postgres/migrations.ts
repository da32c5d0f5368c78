import type { Pool, PoolClient } from 'pg'
import { retryableOrSame } from './connection.js'
import { pgvectorLater, pgvectorMigration } from './pgvector.js'

/** Every table keeps one tenant's rows apart by row-level security on `mk.tenant`, forced on the owner too. */
function tenantTable(name: string, columns: string, key: string): string {
  return `CREATE TABLE ${name} (
  tenant_id text NOT NULL DEFAULT current_setting('mk.tenant', true),
  scope text NOT NULL,
  ${columns},
  PRIMARY KEY (tenant_id, scope${key === '' ? '' : `, ${key}`})
);
ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ${name} FORCE ROW LEVEL SECURITY;
CREATE POLICY ${name}_tenant ON ${name} USING (tenant_id = current_setting('mk.tenant', true)) WITH CHECK (tenant_id = current_setting('mk.tenant', true));`
}

/**
 * The schema, one version after another; a version once released never changes, a change is a
 * new version. `mk_schema_versions` records what a database has.
 */
export const migrations: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'memories, history and ledgers',
    sql: [
      tenantTable(
        'mk_memories',
        `folder text NOT NULL,
  id text NOT NULL,
  record jsonb NOT NULL,
  dedup_key text NOT NULL,
  restriction text NOT NULL`,
        'folder, id',
      ),
      'CREATE INDEX mk_memories_same_content ON mk_memories (tenant_id, scope, folder, dedup_key);',
      'CREATE INDEX mk_memories_by_id ON mk_memories (tenant_id, scope, id);',
      tenantTable(
        'mk_history',
        `seq bigserial,
  commit_id text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  author text,
  message text NOT NULL,
  op text NOT NULL,
  folder text,
  memory_id text,
  text text`,
        'seq',
      ),
      'CREATE INDEX mk_history_by_memory ON mk_history (tenant_id, scope, memory_id, seq);',
      tenantTable('mk_tiers', 'folder text NOT NULL, id text NOT NULL, tier text NOT NULL', 'folder, id'),
      tenantTable('mk_activations', 'seq bigserial, folder text NOT NULL, entry jsonb NOT NULL', 'seq'),
      tenantTable('mk_receipts', 'seq bigserial, at text NOT NULL, receipt jsonb NOT NULL', 'seq'),
      tenantTable('mk_receipt_salts', 'salt bytea NOT NULL', ''),
      tenantTable('mk_outcomes', 'seq bigserial, commit_id text NOT NULL, rule_id text NOT NULL, outcome text NOT NULL, event jsonb NOT NULL', 'seq'),
      tenantTable('mk_relations', 'seq bigserial, folder text NOT NULL, relation jsonb NOT NULL', 'seq'),
    ].join('\n'),
  },
  {
    version: 2,
    name: 'search documents',
    sql: [
      tenantTable(
        'mk_documents',
        `id text NOT NULL,
  n bigint GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  layer text NOT NULL,
  title text,
  content text NOT NULL,
  tags text[] NOT NULL,
  source text,
  path text,
  updated_at bigint NOT NULL,
  expires_at bigint,
  type text,
  status text,
  meta text,
  dedup_key text NOT NULL,
  text_hash text NOT NULL,
  tsv tsvector NOT NULL,
  length integer NOT NULL,
  embedding bytea`,
        'id',
      ),
      'CREATE INDEX mk_documents_text ON mk_documents USING gin (tsv);',
      'CREATE INDEX mk_documents_order ON mk_documents (tenant_id, scope, n);',
      tenantTable('mk_index_state', 'key text NOT NULL, value text NOT NULL', 'key'),
    ].join('\n'),
  },
  {
    // FTS5 (porter unicode61) stems and keeps stop words; 'english' drops them, so a query's "before"
    // or "only" matched nothing here and weighed nothing in BM25. Rows written before are read again
    // from their columns by the owner (row-level security lifted inside this transaction only).
    version: 3,
    name: 'full text as the file store reads it',
    sql: `CREATE TEXT SEARCH DICTIONARY mk_english_stem (TEMPLATE = snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION mk_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION mk_english ALTER MAPPING REPLACE english_stem WITH mk_english_stem;
ALTER TABLE mk_documents NO FORCE ROW LEVEL SECURITY;
UPDATE mk_documents SET tsv = to_tsvector('mk_english', w.text), length = (SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(to_tsvector('mk_english', w.text)))
  FROM (SELECT tenant_id, scope, id, regexp_replace(concat_ws(' ', title, content, array_to_string(tags, ' ')), '[^[:alnum:]]+', ' ', 'g') AS text FROM mk_documents) w
  WHERE w.tenant_id = mk_documents.tenant_id AND w.scope = mk_documents.scope AND w.id = mk_documents.id;
ALTER TABLE mk_documents FORCE ROW LEVEL SECURITY;`,
  },
  {
    // Row-level security keeps the GIN index on `tsv` from ever being used: `@@` is not leakproof, so
    // it is tested only after the tenant's policy, row by row. BM25 read from every matching row's text
    // vector, and one count per query word, cost seconds at 100,000 documents. Each document's words
    // are kept beside it (how often, where, and the document's length), by a trigger in the writing
    // transaction, and read through a B-tree on equality of text, which row-level security allows.
    // Every search asks how many documents wait for a vector: a scan of the scope (76 ms at 100,000)
    // without the partial index, which holds only those.
    version: 4,
    name: 'document words for BM25',
    sql: `${tenantTable(
      'mk_document_terms',
      'lexeme text NOT NULL, n bigint NOT NULL, tf integer NOT NULL, length integer NOT NULL, positions smallint[] NOT NULL',
      'lexeme, n',
    ).replace('PRIMARY KEY (tenant_id, scope, lexeme, n)', 'PRIMARY KEY (tenant_id, scope, lexeme, n) INCLUDE (tf, length, positions)')}
CREATE FUNCTION mk_document_terms_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.tsv = OLD.tsv AND NEW.length = OLD.length AND NEW.n = OLD.n THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM mk_document_terms WHERE tenant_id = OLD.tenant_id AND scope = OLD.scope AND lexeme = ANY (tsvector_to_array(OLD.tsv)) AND n = OLD.n;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO mk_document_terms (tenant_id, scope, lexeme, n, tf, length, positions)
      SELECT NEW.tenant_id, NEW.scope, e.lexeme, NEW.n, coalesce(array_length(e.positions, 1), 1), NEW.length, coalesce(e.positions, '{}') FROM unnest(NEW.tsv) e;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER mk_document_terms_kept AFTER INSERT OR UPDATE OR DELETE ON mk_documents FOR EACH ROW EXECUTE FUNCTION mk_document_terms_kept();
CREATE INDEX mk_documents_pending ON mk_documents (tenant_id, scope, n) WHERE embedding IS NULL;
ALTER TABLE mk_documents NO FORCE ROW LEVEL SECURITY;
ALTER TABLE mk_document_terms NO FORCE ROW LEVEL SECURITY;
INSERT INTO mk_document_terms (tenant_id, scope, lexeme, n, tf, length, positions)
  SELECT d.tenant_id, d.scope, e.lexeme, d.n, coalesce(array_length(e.positions, 1), 1), d.length, coalesce(e.positions, '{}') FROM mk_documents d, unnest(d.tsv) e;
ALTER TABLE mk_document_terms FORCE ROW LEVEL SECURITY;
ALTER TABLE mk_documents FORCE ROW LEVEL SECURITY;
ANALYZE mk_documents;
ANALYZE mk_document_terms;`,
  },
  {
    // Vectors searched by the database (pgvector's HNSW) when the extension can be created; without
    // it nothing changes and each replica keeps searching vectors in its memory (pgvector.ts).
    version: 5,
    name: 'vectors in pgvector when the extension can be created',
    sql: pgvectorMigration,
  },
]

/** Any number that fits in a bigint and is mk's own: the advisory lock two replicas take to migrate one at a time. */
const migrationLock = 0x6d6b_0031

export interface MigrationReport {
  applied: number[]
  current: number
}

/** Bring the schema to the newest version, under an advisory lock so replicas starting together never race. */
export async function migrate(pool: Pool): Promise<MigrationReport> {
  let client: PoolClient
  try {
    client = await pool.connect()
  } catch (error) {
    throw retryableOrSame(error)
  }
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLock])
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS mk_schema_versions (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      )
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM mk_schema_versions')).rows.map((row) => row.version))
      const applied: number[] = []
      for (const migration of migrations) {
        if (done.has(migration.version)) continue
        await client.query('BEGIN')
        try {
          await client.query(migration.sql)
          await client.query('INSERT INTO mk_schema_versions (version, name) VALUES ($1, $2)', [migration.version, migration.name])
          await client.query('COMMIT')
        } catch (error) {
          await client.query('ROLLBACK')
          throw error
        }
        applied.push(migration.version)
      }
      // An extension installed after migration 5 ran without one: the vector column is added now.
      if (done.has(5) && !applied.includes(5)) await client.query(pgvectorLater)
      return { applied, current: Math.max(0, ...done, ...applied) }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLock])
    }
  } catch (error) {
    throw retryableOrSame(error)
  } finally {
    client.release()
  }
}

/** The newest version this database has, 0 for none, without changing it. */
export async function schemaVersion(pool: Pool): Promise<number> {
  try {
    const exists = await pool.query<{ found: string | null }>("SELECT to_regclass('mk_schema_versions') AS found")
    if (exists.rows[0]?.found === null) return 0
    const result = await pool.query<{ version: number | null }>('SELECT max(version) AS version FROM mk_schema_versions')
    return result.rows[0]?.version ?? 0
  } catch (error) {
    throw retryableOrSame(error)
  }
}

export const newestSchema = Math.max(...migrations.map((migration) => migration.version))
