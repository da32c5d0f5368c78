import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../../src/hosts/cli/render.js'

export default class StoreExport extends MkCommand {
  static override summary = "Write one tenant's memories, history and ledgers to a file, to import into another store"
  static override description = `An operator command (never a tool: no HTTP or MCP caller reaches it). Reads one tenant of a store whole — every memory, its history with each commit id and time, the ledgers (tiers, activations, receipts, rule outcomes, graph relations) — into a JSON Lines file that mk store import reads into the same or another store: files to PostgreSQL, back, or between databases. The search index is not in it; the importing store builds its own.

--from names the store: a postgres:// URL (as mk serve --store), a mk serve --data folder, or "workspace" (this workspace and its MK_HOME, tenant default). See docs/postgres.md, "Moving a tenant".`
  static override examples = [
    '<%= config.bin %> store export --from /srv/mk --tenant acme --out acme.mkstore.jsonl',
    '<%= config.bin %> store export --from postgres://mk@127.0.0.1:5432/mk --tenant acme --out acme.mkstore.jsonl',
  ]
  static override flags = {
    from: Flags.string({ description: 'The store: postgres://…, a mk serve --data folder, or "workspace".', required: true }),
    tenant: Flags.string({ description: 'The tenant id (default: default).' }),
    scope: Flags.string({ description: 'The scope inside the tenant (default: default).' }),
    out: Flags.string({ description: 'The file to write (replaced whole, atomically).', required: true }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(StoreExport)
    const { describeCounts, exportTenant, parseStoreSpec } = await import('../../src/hosts/cli/store-move.js')
    const report = await exportTenant(parseStoreSpec(flags.from, '--from'), flags.out, {
      cwd: flags.cwd ?? process.cwd(),
      env: process.env,
      tenant: flags.tenant,
      scope: flags.scope,
      progress: (message) => writeText(process.stderr, process.env, `mk store export: ${message}`),
    })
    if (flags.json) writeJson(process.stdout, report)
    else
      writeText(
        process.stdout,
        process.env,
        `mk store export: tenant ${report.tenant} (scope ${report.scope}) of ${report.store} to ${report.file}: ${describeCounts(report.counts) || 'nothing'}`,
      )
  }
}
