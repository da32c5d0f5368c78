import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { indexStatus } from '../../src/tools/index/status.js'

export default class IndexStatus extends MkCommand {
  static override summary = indexStatus.title
  static override description = indexStatus.description
  static override examples = ['<%= config.bin %> index status', '<%= config.bin %> index status --json']

  async run(): Promise<void> {
    const { flags } = await this.parse(IndexStatus)
    await this.callTool(indexStatus, {}, flags)
  }
}
