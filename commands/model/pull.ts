import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { progressReporter } from '../../src/hosts/cli/progress.js'
import { modelPull } from '../../src/tools/model/pull.js'

export default class ModelPull extends MkCommand {
  static override summary = modelPull.title
  static override description = modelPull.description
  static override examples = [
    '<%= config.bin %> model pull Xenova/bge-small-en-v1.5',
    '<%= config.bin %> model pull Xenova/all-MiniLM-L6-v2 --hub-url https://hub.example.com',
  ]
  static override args = { id: Args.string({ description: 'The model on the hub, owner/name.', required: true }) }
  static override flags = {
    revision: Flags.string({ description: 'Branch, tag or commit on the hub (default main).' }),
    'hub-url': Flags.string({ description: 'The hub to download from (default search.embedding.hubUrl).' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ModelPull)
    const progress = progressReporter(process.stderr)
    try {
      await this.callTool(modelPull, { id: args.id, revision: flags.revision, hubUrl: flags['hub-url'] }, flags, { progress: progress.report })
    } finally {
      await progress.finish()
    }
  }
}
