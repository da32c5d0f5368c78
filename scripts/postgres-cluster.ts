import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'

/**
 * The one throwaway PostgreSQL cluster of the benchmarks and the tests (issue 31): Debian's
 * binaries, initdb into a temp directory as the `postgres` user when run as root, pg_ctl on a
 * free port of 127.0.0.1 with trust authentication, removed whole by stop().
 */

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
  /**
   * A new empty database owned by a new login role that is not a superuser (row-level security
   * binds it, as it binds an application's role), as a connection URL.
   */
  createDatabase(): string
  /** Stops the server as a crash would, keeping its data: what clients see of a database that went away. */
  halt(): void
  /** Starts the halted server again on the same port, with the same data. */
  resume(): void
  stop(): void
}

/** Why no cluster can be started here (PostgreSQL not installed), or undefined: checked without starting one. */
export function postgresMissing(): string | undefined {
  return binary('initdb') === undefined || binary('pg_ctl') === undefined ? 'PostgreSQL is not installed (apt-get install -y postgresql)' : undefined
}

/**
 * initdb refuses to run as root: as root the cluster belongs to the `postgres` user the
 * package creates, and every binary runs as that user; otherwise as the current user.
 */
export async function startCluster(): Promise<Cluster | { skipped: string }> {
  const initdb = binary('initdb')
  const pgCtl = binary('pg_ctl')
  const missing = postgresMissing()
  if (missing !== undefined || initdb === undefined || pgCtl === undefined) return { skipped: missing ?? 'PostgreSQL is not installed' }
  const asRoot = userInfo().uid === 0
  const owner = asRoot ? spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }) : undefined
  if (owner !== undefined && owner.status !== 0) return { skipped: 'running as root without a postgres user to own the cluster' }
  const dir = mkdtempSync(join(tmpdir(), 'mk-postgres-'))
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
  const psql = (sql: string): string => {
    const result = run(binary('psql') ?? 'psql', [...connection, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAt'], sql)
    if (result.status !== 0) throw new Error(`psql: ${result.stderr}`)
    return result.stdout
  }
  let databases = 0
  return {
    port,
    psql,
    createDatabase() {
      databases += 1
      const name = `mk_${process.pid}_${databases}`
      psql(`CREATE ROLE ${name} LOGIN NOSUPERUSER NOBYPASSRLS; CREATE DATABASE ${name} OWNER ${name};`)
      return `postgres://${name}@127.0.0.1:${port}/${name}`
    },
    tool(name, args) {
      return run(binary(name) ?? name, [...connection, ...args, 'postgres'])
    },
    halt() {
      run(pgCtl, ['-D', data, '-m', 'immediate', 'stop'])
    },
    resume() {
      const resumed = run(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
      if (resumed.status !== 0) throw new Error(`pg_ctl start failed: ${resumed.stderr.trim()}`)
    },
    stop() {
      run(pgCtl, ['-D', data, '-m', 'immediate', 'stop'])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
