import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { progressReporter } from '../../src/hosts/cli/progress.js'
import { indexUpdate } from '../../src/tools/index/update.js'

export default class IndexUpdate extends MkCommand {
  static override summary = indexUpdate.title
  static override description = indexUpdate.description
  static override examples = ['<%= config.bin %> index update']

  async run(): Promise<void> {
    const { flags } = await this.parse(IndexUpdate)
    const progress = progressReporter(process.stderr)
    try {
      await this.callTool(indexUpdate, {}, flags, { progress: progress.report })
    } finally {
      await progress.finish()
    }
  }
}
