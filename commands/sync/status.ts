import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { syncStatusTool } from '../../src/tools/sync/status.js'

export default class SyncStatus extends MkCommand {
  static override summary = syncStatusTool.title
  static override description = syncStatusTool.description
  static override examples = ['<%= config.bin %> sync status', '<%= config.bin %> sync status --offline --json']
  static override flags = {
    offline: Flags.boolean({ description: 'Do not contact git remotes; report only what the last sync recorded.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(SyncStatus)
    await this.callTool(syncStatusTool, { offline: flags.offline }, flags)
  }
}
