import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../src/hosts/cli/render.js'
import { mcpProfiles } from '../src/tools/catalog/profiles.js'

export default class Serve extends MkCommand {
  static override summary = 'Serve every mk tool over HTTP: a team server with tenants, auth and quotas'
  static override description = `Starts an HTTP server (POST /v1/tools/<tool> for every tool, the memory contract's named routes, GET /healthz, /readyz and /openapi.json). Calls go through the same dispatcher as the CLI and MCP: same schemas, tiers and read-only mode.

Without --data the server serves this workspace as tenant "default". With --data DIR each tenant (tenant_id in the body or X-Tenant-Id) gets its own store under DIR/tenants/<id>/.

Auth: MK_AUTH_MODE=off|api_key|jwt|api_key_or_jwt; keys from MK_API_KEYS_JSON or MK_API_KEYS_FILE, JWTs signed with MK_JWT_HS256_SECRET; with MK_AUTH_MODE unset, configured keys or a JWT secret turn auth on. A credential's role (reader, writer (the default), admin) decides which tool tiers it may call; only an admin may name another agent or use the recall debug channel. With auth off the server binds only to loopback unless --insecure. Quotas: MK_TENANT_QUOTAS or serve.quotas in .mkrc. One JSON line per request goes to stderr; SIGTERM lets calls in flight finish.

Capacity: calls run on MK_SERVE_THREADS worker threads (default one per core), a queue per tenant served in turn; MK_SERVE_MAX_OPEN_TENANTS (16) tenants stay open, MK_SERVE_MAX_WAITING (256) calls wait per tenant, MK_SERVE_TENANT_WRITES (every thread) of its writes run at once, each before its searches that arrived up to MK_SERVE_WRITE_LEAD_MS (300) ms earlier, MK_SERVE_MAX_BODY_BYTES (4 MiB) is the largest body, MK_SERVE_TOOL_TIMEOUT_MS (30000) is how long a call may run before it is answered 504 TIMEOUT and its thread replaced. See docs/team-server-operations.md.`
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 8080 --data /srv/mk',
    '<%= config.bin %> serve --data /srv/mk --store postgres://mk@127.0.0.1:5432/mk',
    'MK_AUTH_MODE=api_key MK_API_KEYS_FILE=keys.json <%= config.bin %> serve --host 0.0.0.0 --data /srv/mk',
  ]
  static override flags = {
    port: Flags.integer({ description: 'TCP port; 0 picks a free one.', default: 7411, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'Address to bind.', default: '127.0.0.1' }),
    socket: Flags.string({
      description: 'Listen on this Unix socket instead (.mk/serve.sock: mk memory search, knowledge query and rules use it when it runs).',
    }),
    data: Flags.string({ description: 'Folder holding one store per tenant (DIR/tenants/<id>/).' }),
    insecure: Flags.boolean({ description: 'Allow auth off on an address other than loopback.' }),
    profile: Flags.option({ description: 'Which tools to offer (worker: read-only tools only).', options: mcpProfiles, default: 'main' as const })(),
    'read-only': Flags.boolean({ description: 'Refuse every tool that changes state (same as MK_READ_ONLY=1).' }),
    store: Flags.string({
      description: 'postgres://… : keep every tenant in this PostgreSQL database (same as MK_STORE); without it, files. See docs/postgres.md.',
    }),
    migrate: Flags.boolean({ description: "Bring the --store database's schema to the newest version, then exit (the server also migrates on start)." }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve)
    const { migrateStore, startServer } = await import('../src/hosts/http/serve.js')
    if (flags.migrate) {
      const store = await migrateStore({ store: flags.store, env: process.env })
      if (flags.json) writeJson(process.stdout, { store })
      else writeText(process.stdout, process.env, `mk serve --migrate: ${String(store.database)} is at schema version ${String(store.schema)}`)
      return
    }
    const server = await startServer({
      cwd: flags.cwd ?? process.cwd(),
      env: process.env,
      host: flags.host,
      port: flags.port,
      socket: flags.socket,
      dataDir: flags.data,
      insecure: flags.insecure,
      profile: flags.profile,
      readOnly: flags['read-only'],
      store: flags.store,
    })
    const { stopped, ...started } = server
    if (flags.json) writeJson(process.stdout, started)
    else
      writeText(
        process.stdout,
        process.env,
        `mk serve: listening on ${started.url} (auth ${started.auth}, ${started.tenants}, store ${String(started.store.kind)}); recall debug channel: ${started.debug_channel}`,
      )
    await stopped
  }
}
