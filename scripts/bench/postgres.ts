import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { median, round } from './measure.js'

/** Debian's PostgreSQL binaries (the `postgresql` package), or those on the PATH. */
function binary(name: string): string | undefined {
  for (const version of ['17', '16', '15']) {
    const path = `/usr/lib/postgresql/${version}/bin/${name}`
    if (existsSync(path)) return path
  }
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' })
  return found.status === 0 ? found.stdout.trim() : undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** A throwaway PostgreSQL cluster on 127.0.0.1, trust auth, in a temp directory removed by stop(). */
export interface Cluster {
  port: number
  /** Runs SQL through psql (as the cluster's owner) and returns its unaligned output. */
  psql(sql: string): string
  /** Runs a tool of the PostgreSQL binaries (pgbench) against the cluster's `postgres` database. */
  tool(name: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string }
  stop(): void
}

/**
 * initdb refuses to run as root: as root the cluster belongs to the `postgres` user the
 * package creates, and every binary runs as that user; otherwise as the current user.
 */
export async function startCluster(): Promise<Cluster | { skipped: string }> {
  const initdb = binary('initdb')
  const pgCtl = binary('pg_ctl')
  if (initdb === undefined || pgCtl === undefined) return { skipped: 'PostgreSQL is not installed (apt-get install -y postgresql)' }
  const asRoot = userInfo().uid === 0
  const owner = asRoot ? spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }) : undefined
  if (owner !== undefined && owner.status !== 0) return { skipped: 'running as root without a postgres user to own the cluster' }
  const dir = mkdtempSync(join(tmpdir(), 'mk-bench-postgres-'))
  chmodSync(dir, 0o700)
  if (owner !== undefined) {
    const uid = Number(owner.stdout.trim())
    chownSync(dir, uid, Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()))
  }
  const run = (command: string, args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } => {
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', input, cwd: dir, maxBuffer: 64 * 1024 * 1024 })
      : spawnSync(command, args, { encoding: 'utf8', input, cwd: dir, maxBuffer: 64 * 1024 * 1024 })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }
  const data = join(dir, 'data')
  const initialised = run(initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C'])
  if (initialised.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    return { skipped: `initdb failed: ${initialised.stderr.trim()}` }
  }
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`
  const started = run(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
  if (started.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    return { skipped: `pg_ctl start failed: ${started.stderr.trim()}` }
  }
  const connection = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres']
  return {
    port,
    psql(sql) {
      const result = run(binary('psql') ?? 'psql', [...connection, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAt'], sql)
      if (result.status !== 0) throw new Error(`psql: ${result.stderr}`)
      return result.stdout
    },
    tool(name, args) {
      return run(binary(name) ?? name, [...connection, ...args, 'postgres'])
    },
    stop() {
      run(pgCtl, ['-D', data, '-m', 'immediate', 'stop'])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

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
