import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../../src/hosts/cli/render.js'

export default class StoreImport extends MkCommand {
  static override summary = 'Read a file written by mk store export into one tenant of a store'
  static override description = `An operator command (never a tool: no HTTP or MCP caller reaches it). Checks the whole file first (its format version, every line: INVALID_INPUT names the line) and writes nothing when anything is wrong. A tenant that already holds memories, history or ledger rows is refused (CONFLICT) unless --replace. On PostgreSQL the import is one transaction; on files each file is written atomically and MK_HOME gets one commit, the source's history (commit ids and times) kept beside it.

--to names the store: a postgres:// URL (as mk serve --store), a mk serve --data folder, or "workspace". The tenant may differ from the one exported (a copy between tenants). See docs/postgres.md, "Moving a tenant".`
  static override examples = [
    '<%= config.bin %> store import --to postgres://mk@127.0.0.1:5432/mk --tenant acme acme.mkstore.jsonl',
    '<%= config.bin %> store import --to /srv/mk --tenant acme --replace acme.mkstore.jsonl',
  ]
  static override args = { file: Args.string({ description: 'The file mk store export wrote.', required: true }) }
  static override flags = {
    to: Flags.string({ description: 'The store: postgres://…, a mk serve --data folder, or "workspace".', required: true }),
    tenant: Flags.string({ description: 'The tenant id (default: default).' }),
    scope: Flags.string({ description: 'The scope inside the tenant (default: default).' }),
    replace: Flags.boolean({ description: 'Drop what the tenant holds (memories, history, ledgers) and import instead of it.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(StoreImport)
    const { describeCounts, importTenant, parseStoreSpec } = await import('../../src/hosts/cli/store-move.js')
    const report = await importTenant(parseStoreSpec(flags.to, '--to'), args.file, {
      cwd: flags.cwd ?? process.cwd(),
      env: process.env,
      tenant: flags.tenant,
      scope: flags.scope,
      replace: flags.replace,
      progress: (message) => writeText(process.stderr, process.env, `mk store import: ${message}`),
    })
    if (flags.json) writeJson(process.stdout, report)
    else
      writeText(
        process.stdout,
        process.env,
        `mk store import: ${report.file} into tenant ${report.tenant} (scope ${report.scope}) of ${report.store}: ${describeCounts(report.counts) || 'nothing'}`,
      )
  }
}
