import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'

/**
 * A PostgreSQL with the real pgvector extension, for the pgvector path's tests and bench: Debian 12
 * packages no pgvector, and PGlite (PostgreSQL 17 compiled to WebAssembly, with pgvector 0.8) is
 * the one installable here. It is served on 127.0.0.1 over the wire protocol (pglite-socket), so
 * the store connects with node-postgres as to any server.
 *
 * Its limits, which the tests respect: PGlite is ONE single-user session. pglite-socket lets
 * several connections in and queues their messages, one transaction at a time, but they share
 * that session: its prepared statements (so a store's pool must hold one connection besides
 * the listening one, and keep it: vectorPool), its advisory locks (never contended: concurrency
 * is tested on the Debian cluster), and LISTEN (a notification reaches whichever connection is
 * answered, so replicas are not tested here).
 */
export interface VectorDatabase {
  /** A URL as the plain role `mk` (not a superuser: row-level security binds it), which owns database `mk`. */
  url: string
  /** Stop serving, run SQL in database `mk` as the superuser (an admin's step, as `CREATE EXTENSION vector`), and serve again on the same port. */
  asAdmin(sql: string): Promise<void>
  stop(): Promise<void>
}

/**
 * Starts PGlite in this process on a free port. `extension`: whether an admin created pgvector
 * in the database first (as on a managed database); without, the role `mk` may not create it.
 */
export async function startVectorDatabase(options: { extension: boolean }): Promise<VectorDatabase> {
  const [{ PGlite }, { vector }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/vector'),
    import('@electric-sql/pglite-socket'),
  ])
  const dataDir = await mkdtemp(join(tmpdir(), 'mk-pglite-'))
  const admin = await PGlite.create({ dataDir, extensions: { vector } })
  await admin.exec('CREATE ROLE mk LOGIN NOSUPERUSER NOBYPASSRLS')
  await admin.exec('CREATE DATABASE mk OWNER mk')
  await admin.close()
  const runAsAdmin = async (sql: string): Promise<void> => {
    const inDatabase = await PGlite.create({ dataDir, database: 'mk', extensions: { vector } })
    await inDatabase.exec(sql)
    await inDatabase.close()
  }
  if (options.extension) await runAsAdmin('CREATE EXTENSION vector')
  let port = 0
  const serve = async () => {
    const db: PGlite = await PGlite.create({ dataDir, username: 'mk', database: 'mk', extensions: { vector } })
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 8 })
    await server.start()
    port = Number(server.getServerConn().split(':').at(-1))
    return async () => {
      await server.stop()
      await db.close()
    }
  }
  let stopServing = await serve()
  return {
    url: `postgres://mk@127.0.0.1:${port}/mk`,
    async asAdmin(sql) {
      await stopServing()
      await runAsAdmin(sql)
      stopServing = await serve()
    },
    async stop() {
      await stopServing()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
