import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startCluster } from '../postgres-cluster.js'
import { median, round } from './measure.js'

const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`

/**
 * The same texts in a PostgreSQL table with a GIN-indexed tsvector, searched by pgbench with
 * `clients` connections for `seconds`, one question per script: the full-text baseline issue 27
 * puts beside `mk serve`'s searches.
 */
export async function postgresFullText(
  texts: readonly string[],
  questions: readonly string[],
  clients: number,
  seconds: number,
): Promise<Record<string, unknown>> {
  const cluster = await startCluster()
  if ('skipped' in cluster) return { skipped: cluster.skipped }
  try {
    const rows = texts.map((text, index) => `(${index}, ${sqlText(text)})`).join(',\n')
    cluster.psql(`CREATE TABLE memories (id int PRIMARY KEY, content text NOT NULL, tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED);
INSERT INTO memories (id, content) VALUES ${rows};
CREATE INDEX memories_tsv ON memories USING gin (tsv);
ANALYZE memories;`)
    const scripts = mkdtempSync(join(tmpdir(), 'mk-bench-pgbench-'))
    chmodSync(scripts, 0o777)
    try {
      const files = questions.map((question, index) => {
        const file = join(scripts, `q${index}.sql`)
        writeFileSync(
          file,
          `SELECT id, ts_rank(tsv, q) AS rank FROM memories, websearch_to_tsquery('english', ${sqlText(question)}) q WHERE tsv @@ q ORDER BY rank DESC LIMIT 10;\n`,
        )
        return file
      })
      const logPrefix = join(scripts, 'latency')
      const result = cluster.tool('pgbench', [
        '-n',
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-l',
        `--log-prefix=${logPrefix}`,
        ...files.flatMap((file) => ['-f', file]),
      ])
      if (result.status !== 0) return { skipped: `pgbench failed: ${result.stderr.trim()}` }
      const tps = /tps = ([\d.]+)/.exec(result.stdout)?.[1]
      // Per-transaction log lines: client, transaction, latency in µs, script, epoch, µs.
      const latencies = readdirSync(scripts)
        .filter((name) => name.startsWith('latency'))
        .flatMap((name) => readFileSync(join(scripts, name), 'utf8').trim().split('\n'))
        .map((line) => Number(line.split(' ')[2]) / 1000)
        .filter((value) => Number.isFinite(value))
        .sort((a, b) => a - b)
      return {
        rows: texts.length,
        requests_per_s: tps === undefined ? null : round(Number(tps)),
        p50_ms: round(median(latencies), 2),
        p99_ms: round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0, 2),
        tool: 'pgbench, PostgreSQL full text (tsvector, GIN), same texts and questions',
      }
    } finally {
      rmSync(scripts, { recursive: true, force: true })
    }
  } finally {
    cluster.stop()
  }
}
