import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { progressReporter } from '../../src/hosts/cli/progress.js'
import { indexRebuild } from '../../src/tools/index/rebuild.js'

export default class IndexRebuild extends MkCommand {
  static override summary = indexRebuild.title
  static override description = indexRebuild.description
  static override examples = ['<%= config.bin %> index rebuild']

  async run(): Promise<void> {
    const { flags } = await this.parse(IndexRebuild)
    const progress = progressReporter(process.stderr)
    try {
      await this.callTool(indexRebuild, {}, flags, { progress: progress.report })
    } finally {
      await progress.finish()
    }
  }
}
