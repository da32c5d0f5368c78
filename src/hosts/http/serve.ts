import { mkdir, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import { runtimeEnvFrom } from '../../config/workspace.js'
import { MkError, toErrorObject } from '../../errors.js'
import { debugChannelExposure } from '../../tools/debug-channel.js'
import { timeoutOf } from '../../tools/dispatcher.js'
import { buildManifest } from '../../tools/generate/manifest.js'
import { renderOpenApi } from './openapi.js'
import { readPackageInfo } from '../../tools/generate/project.js'
import { toolsForProfile, type McpProfile } from '../../tools/catalog/profiles.js'
import { registeredTools } from '../../tools/catalog/registered.js'
import { socketOnlyTools } from '../../tools/catalog/socket-only.js'
import { createHttpApp } from './app.js'
import { createAuthenticator, noAuthentication, type AuthMode } from './auth.js'
import { CallScheduler } from './call-scheduler.js'
import { isLoopbackHost } from './loopback.js'
import { serveLimitsFrom } from './serve-limits.js'
import { listenOnSocket, removeSocket } from './socket-listen.js'
import { TenantQuotas, quotaSettingsFrom } from './quotas.js'
import { TenantStores, defaultScope, defaultTenant, tenantPlaces, type StoreDatabase } from './tenants.js'
import { closeStores, storeRole, storeStatus } from '../../tools/open-store.js'
import { inlineRunner, threadRunner, type CallDeadlines, type CallRunner, type ThreadLayout } from './tool-threads.js'
import type { WarmWrites } from './warm-writes.js'

export interface ServeOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  host: string
  port: number
  /** Listen on this Unix socket instead of host and port (local acceleration: the CLI of the same user calls it). */
  socket: string | undefined
  /** A folder with one store per tenant; without it the server serves its own workspace as tenant `default`. */
  dataDir: string | undefined
  /** Allows auth off on an address other than loopback. */
  insecure: boolean
  profile: McpProfile
  readOnly: boolean
  /** `postgres://…`: every tenant's memories, history, ledgers and index in this database (--store, MK_STORE); absent: files. */
  store?: string | undefined
}

export interface RunningServer {
  url: string
  host: string
  port: number
  auth: AuthMode
  tenants: 'one workspace' | 'one store per tenant'
  /** Where the data is kept: files, or the database (its place, schema version and vector path). */
  store: Record<string, unknown>
  /** Who may use memory_recall's debug channel (return_debug), said at start-up. */
  debug_channel: string
  /** Settles when the server has stopped (SIGTERM or SIGINT) and released every tenant's resources. */
  stopped: Promise<void>
}

/** The folder of the tenants' stores, made if missing; a file there is refused at start, not at the first request. */
async function dataFolder(cwd: string, dataDir: string): Promise<string> {
  const folder = resolve(cwd, dataDir)
  const info = await stat(folder).catch(() => undefined)
  if (info !== undefined && !info.isDirectory()) {
    throw new MkError('INVALID_INPUT', `--data ${dataDir} is a file, not a folder`, {
      details: { field: '--data', hint: "name a folder for the tenants' stores (mk makes it if it is missing)" },
    })
  }
  await mkdir(folder, { recursive: true })
  return folder
}

const defaultPoolSize = 10

/** The database of --store or MK_STORE, with MK_STORE_POOL_SIZE connections per process or tool thread; undefined for files. */
function storeDatabaseFrom(store: string | undefined, poolSize: string | undefined): StoreDatabase | undefined {
  if (store === undefined || store.trim() === '') return undefined
  if (!/^postgres(ql)?:\/\//.test(store)) {
    throw new MkError('INVALID_INPUT', '--store (or MK_STORE) is not a postgres:// URL', {
      details: { field: '--store', hint: 'pass postgres://user@host:5432/database, or leave it out to keep the data in files' },
    })
  }
  const size = poolSize === undefined || poolSize.trim() === '' ? defaultPoolSize : Number(poolSize)
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new MkError('INVALID_INPUT', `MK_STORE_POOL_SIZE must be a whole number from 1 to 1000, not "${poolSize ?? ''}"`, {
      details: { field: 'MK_STORE_POOL_SIZE', hint: `leave it unset for ${defaultPoolSize} connections per process` },
    })
  }
  return { url: store, poolSize: size }
}

/**
 * A role row-level security does not bind reads every tenant's rows (the store's queries name the
 * scope; the tenant is the database's policy): refused for a server of many tenants unless the
 * operator says so, and said on stderr whenever it is allowed (ADR 0032).
 */
function refuseOrWarnBypass(store: { role: string; warning?: string | undefined }, options: Pick<ServeOptions, 'dataDir' | 'env'>): void {
  const warning = store.warning ?? `the PostgreSQL role "${store.role}" bypasses row-level security`
  if (options.dataDir !== undefined && options.env.MK_STORE_ALLOW_BYPASSRLS !== '1') {
    throw new MkError('FORBIDDEN', `refusing to serve many tenants (--data) over --store: ${warning}`, {
      details: {
        field: '--store',
        role: store.role,
        hint: 'connect as a role that is neither superuser nor BYPASSRLS; MK_STORE_ALLOW_BYPASSRLS=1 serves anyway, with every tenant able to read every other',
      },
    })
  }
  process.stderr.write(`mk serve: warning: ${warning}\n`)
}

/** `mk serve --migrate`: bring the database's schema to the newest version and say what it is, without serving. */
export async function migrateStore(options: Pick<ServeOptions, 'store' | 'env'>): Promise<Record<string, unknown>> {
  const database = storeDatabaseFrom(options.store ?? options.env.MK_STORE, options.env.MK_STORE_POOL_SIZE)
  if (database === undefined) {
    throw new MkError('INVALID_INPUT', '--migrate needs a database: pass --store postgres://… or set MK_STORE', { details: { field: '--migrate' } })
  }
  try {
    return await storeStatus(database)
  } finally {
    await closeStores()
  }
}

/** `mk serve`: every tool of the profile over HTTP, until SIGTERM or SIGINT. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  // On the socket, its file mode is the authentication: MK_AUTH_MODE (set for a team server) must not lock out its own user's CLI.
  const auth = options.socket === undefined ? await createAuthenticator(options.env) : noAuthentication
  if (auth.mode === 'off' && options.socket === undefined && !isLoopbackHost(options.host) && !options.insecure) {
    throw new MkError('INVALID_INPUT', `refusing to serve ${options.host} with auth off: anyone who can reach it could read and change every tenant's data`, {
      details: { hint: 'set MK_AUTH_MODE=api_key (with MK_API_KEYS_JSON or MK_API_KEYS_FILE) or jwt, bind to 127.0.0.1, or pass --insecure' },
    })
  }
  const workspace = await loadWorkspace({ cwd: options.cwd, env: options.env })
  const database = storeDatabaseFrom(options.store ?? options.env.MK_STORE, options.env.MK_STORE_POOL_SIZE)
  if (database !== undefined) {
    const role = await storeRole(database)
    if (role.rls === 'bypassed') refuseOrWarnBypass(role, options)
  }
  // Migrated before the first request, under the database's lock: replicas starting together migrate once.
  const store = await storeStatus(database)
  const baseRuntime = runtimeEnvFrom(options.env)
  const runtime = { ...baseRuntime, readOnly: baseRuntime.readOnly || options.readOnly }
  const dataDir = options.dataDir === undefined ? undefined : await dataFolder(options.cwd, options.dataDir)
  const quotas = new TenantQuotas(quotaSettingsFrom(options.env, workspace.config.serve.quotas))
  const limits = serveLimitsFrom(options.env)
  const tools = toolsForProfile(await registeredTools(), options.profile)
  const socket = options.socket === undefined ? undefined : resolve(options.cwd, options.socket)
  // The socket's caller is the server's own user: it also answers the agent hooks (mk hook claude, mk hook cursor).
  const offered = socket === undefined ? tools : [...tools, ...(await socketOnlyTools())]
  // Each thread loads the workspace as this one did; where no compiled thread exists (sources under a test runner) calls run here.
  const env = { ...options.env }
  const layout: ThreadLayout = dataDir === undefined ? { cwd: options.cwd, env } : { dataDir }
  // Where each tenant's workspace and MK_HOME are: the stores open them, the app names them relatively in errors.
  const stores = dataDir === undefined ? { workspace } : { dataDir }
  const runner =
    threadRunner(limits.threads, { layout, env, database }, callDeadlines(offered, limits.toolTimeoutMs)) ??
    inlineRunner(new TenantStores(stores, database, limits.maxScopesPerTenant), offered, env, limits.toolTimeoutMs)
  const calls = new CallScheduler(runner, limits)
  const openApi = renderOpenApi(buildManifest(tools, await readPackageInfo()))
  const app = await createHttpApp({
    tools: offered,
    calls,
    limits,
    placesOf: (tenantId, scope) => tenantPlaces(stores, tenantId, scope),
    runtime,
    auth,
    quotas,
    openApi,
    log: (line) => process.stderr.write(line),
    callerRuntimeHeaders: socket !== undefined,
    // Files need no check of their own: /readyz answers as before.
    storeStatus: database === undefined ? undefined : () => storeStatus(database),
  })
  if (socket === undefined) await app.fastify.listen({ host: options.host, port: options.port })
  else await listenOnSocket(app.fastify, socket)
  const address = app.fastify.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : options.port

  if (socket !== undefined) void warmHookCheck(runner, runtime)
  void warmUp(runner, dataDir === undefined, tools, runtime, { bundledModel: workspace.config.search.embedding.provider === 'bundled' }).then(
    () => app.setReadiness({ ready: true }),
    (error: unknown) => app.setReadiness({ ready: false, error: toErrorObject(error) }),
  )

  const stopped = new Promise<void>((resolveStopped, rejectStopped) => {
    const stop = (): void => {
      process.off('SIGTERM', stop)
      process.off('SIGINT', stop)
      app
        .close()
        .then(() => (socket === undefined ? undefined : removeSocket(socket)))
        .then(resolveStopped, rejectStopped)
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
  const urlHost = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: socket === undefined ? `http://${urlHost}:${port}` : `unix:${socket}`,
    host: options.host,
    port,
    auth: auth.mode,
    tenants: dataDir === undefined ? 'one workspace' : 'one store per tenant',
    store,
    debug_channel: debugChannelExposure(auth.mode !== 'off', runtime),
    stopped,
  }
}

/** A tool's own limit (an evaluation may take hours), else the server's; one second's grace lets a call waiting on I/O time out by itself. */
function callDeadlines(tools: readonly { name: string; timeoutMs?: number | undefined }[], toolTimeoutMs: number): CallDeadlines {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  return { timeoutMsOf: (name) => timeoutOf(byName.get(name) ?? {}, toolTimeoutMs), graceMs: 1000 }
}

/**
 * One edit check and one session start in every thread, so the first agent edit is answered by loaded
 * modules (the check, the token counter) and compiled code. The outcomes do not matter: a broken
 * constraint is reported to the hook that meets it.
 */
async function warmHookCheck(runner: CallRunner, runtime: ReturnType<typeof runtimeEnvFrom>): Promise<void> {
  const edit = { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: '.mk/hook-warm-up.ts', content: 'export {}\n' } }
  const slots = Array.from({ length: runner.threaded ? runner.slots : 1 }, (_, slot) => slot)
  for (const event of [edit, { hook_event_name: 'SessionStart' }]) {
    const call = { tool: 'hook_claude', tenantId: defaultTenant, scope: defaultScope, input: { event }, runtime }
    await Promise.allSettled(slots.map((slot) => runner.run(call, slot)))
  }
}

/**
 * Ready means every thread has loaded what a memory write needs and, for one workspace, the default
 * tenant's index is open and its embedding model loaded in every thread: one search each does both.
 */
async function warmUp(
  runner: CallRunner,
  oneWorkspace: boolean,
  tools: Parameters<typeof toolsForProfile>[0],
  runtime: ReturnType<typeof runtimeEnvFrom>,
  writes: WarmWrites,
): Promise<void> {
  // Every layout: what a write loads is the same for every tenant.
  if (tools.some((tool) => tool.name === 'memory_add')) await runner.warmWrites(writes)
  if (!oneWorkspace || !tools.some((tool) => tool.name === 'memory_search')) return
  const call = { tool: 'memory_search', tenantId: defaultTenant, scope: defaultScope, input: { query: 'warm up', limit: 1 }, runtime }
  // The first brings the index up to date (embedding what waits, minutes at 10,000 new memories),
  // so no deadline: past one it would fail, and the server would never be ready. The others then only open it.
  const first = await runner.run({ ...call, unbounded: true }, 0)
  const others = runner.threaded ? await Promise.all(Array.from({ length: runner.slots - 1 }, (_, slot) => runner.run(call, slot + 1))) : []
  for (const outcome of [first, ...others]) {
    if (!outcome.ok) throw new MkError(outcome.error.errorCode, `warming up failed: ${outcome.error.message}`, { details: outcome.error.details ?? {} })
  }
}
