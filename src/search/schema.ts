/** Bump when the tables change: an index of another version is rebuilt from the files. */
export const schemaVersion = 5

/** Written into `meta` so a SQLite file that is not ours is never mistaken for an index. */
export const applicationTag = 'mk-index'

/**
 * The rows of docs each write touched, in order: a long-lived connection's vectors in memory
 * (vector-matrix.ts) read again only those, not the whole index after every write. A vector is
 * only ever written or dropped with its document's row, so the triggers on docs see it. The
 * newest few thousand entries are kept; a reader further behind reads everything again.
 */
const changeLog = `
CREATE TABLE IF NOT EXISTS doc_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, doc INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS docs_inserted AFTER INSERT ON docs BEGIN INSERT INTO doc_changes (doc) VALUES (new.rowid); END;
CREATE TRIGGER IF NOT EXISTS docs_updated AFTER UPDATE ON docs BEGIN INSERT INTO doc_changes (doc) VALUES (new.rowid); END;
CREATE TRIGGER IF NOT EXISTS docs_deleted AFTER DELETE ON docs BEGIN INSERT INTO doc_changes (doc) VALUES (old.rowid); END;
CREATE TRIGGER IF NOT EXISTS doc_changes_pruned AFTER INSERT ON doc_changes WHEN new.seq % 1024 = 0
  BEGIN DELETE FROM doc_changes WHERE seq <= new.seq - 4096; END;
`

export const createTables = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  layer TEXT NOT NULL,
  source TEXT,
  path TEXT,
  type TEXT,
  status TEXT,
  title TEXT,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  dedup_key TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER,
  embedded INTEGER NOT NULL DEFAULT 0,
  meta TEXT
);
CREATE INDEX IF NOT EXISTS docs_kind_layer ON docs (kind, layer);
CREATE INDEX IF NOT EXISTS docs_source ON docs (source);
CREATE INDEX IF NOT EXISTS docs_pending ON docs (embedded) WHERE embedded = 0;
CREATE INDEX IF NOT EXISTS docs_dedup ON docs (dedup_key);
CREATE INDEX IF NOT EXISTS docs_content_hash ON docs (content_hash);
CREATE TABLE IF NOT EXISTS doc_tags (tag TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (tag, doc)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS doc_tags_doc ON doc_tags (doc);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(text, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS file_signatures (source TEXT NOT NULL, name TEXT NOT NULL, signature TEXT NOT NULL, PRIMARY KEY (source, name)) WITHOUT ROWID;
${changeLog}`

/**
 * Vectors in a plain table, beside their document's rowid: exact scans and the partition scans
 * of src/search/vector-partitions.ts read them through SQLite's b-tree; `list` is the partition.
 */
export const createVectorTables = `
CREATE TABLE IF NOT EXISTS vectors (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL, list INTEGER);
CREATE INDEX IF NOT EXISTS vectors_list ON vectors (list);
CREATE TABLE IF NOT EXISTS vector_centroids (list INTEGER PRIMARY KEY, centroid BLOB NOT NULL);
`
