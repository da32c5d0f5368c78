import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { progressReporter } from '../../src/hosts/cli/progress.js'
import { syncNow } from '../../src/tools/sync/now.js'

export default class Sync extends MkCommand {
  static override summary = syncNow.title
  static override description = syncNow.description
  static override examples = ['<%= config.bin %> sync', '<%= config.bin %> sync --layer company --json', '<%= config.bin %> sync --force']
  static override flags = {
    force: Flags.boolean({ description: 'Re-process every item, accept rewritten remote history, discard edits inside local clones.' }),
    type: Flags.string({ description: 'Only process items of this type (adr, policy, pattern, spec, rule).', multiple: true }),
    layer: Flags.string({ description: 'Only sync sources of this layer (project, team, org, company).', multiple: true }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Sync)
    const progress = progressReporter(process.stderr)
    try {
      await this.callTool(syncNow, { force: flags.force, types: flags.type, layers: flags.layer }, flags, { progress: progress.report })
    } finally {
      await progress.finish()
    }
  }
}
