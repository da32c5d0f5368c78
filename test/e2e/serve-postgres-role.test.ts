import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectCleanError, parseJson, runMk } from '../helpers/mk.js'
import { noPostgres, throwawayCluster } from '../helpers/postgres.js'
import { startServe, type FailedStart, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/* Spawns the built `mk serve --store` (run `npm run build` first) as roles row-level security does and does not bind. */

const postgres = throwawayCluster()

describe.skipIf(noPostgres !== undefined)('mk serve --store and a role that bypasses row-level security', () => {
  let workspace: TempWorkspace
  let plain: string
  let superuser: string
  let bypass: string
  const running: RunningServe[] = []

  beforeAll(async () => {
    workspace = await makeWorkspace({ '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
    plain = postgres.cluster().createDatabase()
    const url = new URL(plain)
    const database = url.pathname.slice(1)
    superuser = `postgres://postgres@${url.host}/${database}`
    // Not a superuser, but BYPASSRLS: it may use the tables the plain role made, and no policy binds it.
    postgres.cluster().psql(`CREATE ROLE ${database}_bypass LOGIN NOSUPERUSER BYPASSRLS; GRANT ${url.username} TO ${database}_bypass;`)
    bypass = `postgres://${database}_bypass@${url.host}/${database}`
  }, 120_000)
  afterAll(async () => {
    for (const server of running) await server.stop()
    await workspace.cleanup()
  })

  const serve = async (store: string, options: { data: boolean; env?: Record<string, string> }): Promise<RunningServe> => {
    const args = ['--store', store, ...(options.data ? ['--data', join(workspace.root, 'data')] : [])]
    const server = await startServe({ cwd: workspace.root, args, env: { MK_HOME: workspace.mkHome, ...options.env } })
    running.push(server)
    return server
  }
  /** With --json the refusal is the error object on stdout, and the process exits. */
  const refused = async (store: string): Promise<{ exitCode: number | null; error: Record<string, unknown> }> => {
    const outcome = await serve(store, { data: true }).then(
      async (server) => ({
        exitCode: server.child.exitCode ?? (await new Promise<number | null>((resolve) => server.child.once('exit', resolve))),
        error: server.started,
      }),
      (error: unknown) => ({ exitCode: (error as FailedStart).exitCode, error: JSON.parse((error as FailedStart).stdout) as Record<string, unknown> }),
    )
    return outcome
  }

  it('serves as a plain role with row-level security enforced and no warning', async () => {
    const server = await serve(plain, { data: true })
    expect(server.started.store).toMatchObject({ kind: 'postgres', rls: 'enforced' })
    expect(server.started.store).not.toHaveProperty('warning')
    const ready = (await (await server.ready()).json()) as Record<string, unknown>
    expect(ready.store).toMatchObject({ rls: 'enforced' })
    const doctor = await server.post('/v1/tools/doctor_check', { offline: true }, { 'x-tenant-id': 'acme' })
    expect((doctor.body.checks as { name: string }[]).map((check) => check.name)).not.toContain('store role')
    expect(server.stderr()).not.toMatch(/row-level security/)
  })

  it('refuses to serve many tenants as a superuser or a BYPASSRLS role, saying how to fix it, before it makes any table', async () => {
    const fresh = new URL(postgres.cluster().createDatabase()).pathname.slice(1)
    const freshAsSuperuser = `postgres://postgres@${new URL(plain).host}/${fresh}`
    for (const store of [freshAsSuperuser, superuser, bypass]) {
      const { exitCode, error } = await refused(store)
      expect(exitCode).toBe(2)
      expect(error).toMatchObject({ success: false, errorCode: 'FORBIDDEN' })
      expect(error.message).toMatch(/superuser or has BYPASSRLS, so row-level security does not apply/)
      expect(error.message).toContain('docs/postgres.md')
      expect(JSON.stringify(error.details)).toContain('MK_STORE_ALLOW_BYPASSRLS=1')
    }
    // The tables the superuser would own (and the plain role then could not use) were never made.
    const tables = (database: string): number =>
      Number(postgres.cluster().psql(`\\c ${database}\nSELECT count(*) FROM pg_tables WHERE tablename LIKE 'mk_%';`).trim())
    expect(tables(fresh)).toBe(0)
    expect(tables(new URL(plain).pathname.slice(1))).toBeGreaterThan(0)
  })

  it('serves when the operator allows it, and warns at start, in /readyz and in doctor', async () => {
    const server = await serve(superuser, { data: true, env: { MK_STORE_ALLOW_BYPASSRLS: '1' } })
    expect(server.started.store).toMatchObject({ rls: 'bypassed', role: 'postgres' })
    expect(server.stderr()).toMatch(/mk serve: warning: the PostgreSQL role "postgres" is a superuser or has BYPASSRLS/)
    const ready = (await (await server.ready()).json()) as { store: Record<string, unknown> }
    expect(ready.store).toMatchObject({ rls: 'bypassed' })
    expect(String(ready.store.warning)).toContain('CREATE ROLE mk LOGIN NOSUPERUSER NOBYPASSRLS')
    const doctor = await server.post('/v1/tools/doctor_check', { offline: true }, { 'x-tenant-id': 'acme' })
    const check = (doctor.body.checks as { name: string; status: string; message: string }[]).find((candidate) => candidate.name === 'store role')
    expect(check?.status).toBe('warn')
    expect(check?.message).toContain('row-level security does not apply')
  })

  it('serves one workspace (one tenant) as a superuser with the warning only', async () => {
    const server = await serve(superuser, { data: false })
    expect(server.started.store).toMatchObject({ rls: 'bypassed' })
    expect(server.stderr()).toMatch(/mk serve: warning: .*BYPASSRLS/)
  })

  it('names the cause when the tables belong to another role (an admin made them)', async () => {
    const fresh = postgres.cluster().createDatabase()
    const url = new URL(fresh)
    const migrated = await runMk(['serve', '--migrate', '--store', `postgres://postgres@${url.host}${url.pathname}`, '--json'], { cwd: workspace.root })
    expect(migrated.exitCode, migrated.stderr).toBe(0)
    const refused = await runMk(['serve', '--migrate', '--store', fresh, '--json'], { cwd: workspace.root })
    expectCleanError(refused)
    expect(parseJson(refused)).toMatchObject({ errorCode: 'FORBIDDEN' })
    expect(refused.stdout).toContain('another role made them')
    expect(refused.stdout).toContain('docs/postgres.md')
  })
})
