import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { knowledgeShow } from '../../src/tools/knowledge/show.js'

export default class KnowledgeShow extends MkCommand {
  static override summary = knowledgeShow.title
  static override description = knowledgeShow.description
  static override examples = [
    '<%= config.bin %> knowledge show adr-0001-use-postgresql',
    '<%= config.bin %> knowledge show adr-0001-use-postgresql --history --json',
  ]
  static override args = { id: Args.string({ description: 'Knowledge item id.', required: true }) }
  static override flags = {
    history: Flags.boolean({ description: 'Include the git history of the item.' }),
    constraints: Flags.boolean({ description: 'Include constraints (default true; --no-constraints to leave them out).', allowNo: true, default: true }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(KnowledgeShow)
    await this.callTool(knowledgeShow, { id: args.id, history: flags.history, constraints: flags.constraints }, flags)
  }
}
