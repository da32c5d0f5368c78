import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { knowledgeNew } from '../../src/tools/knowledge/new.js'

export default class KnowledgeNew extends MkCommand {
  static override summary = knowledgeNew.title
  static override description = knowledgeNew.description
  static override examples = [
    '<%= config.bin %> knowledge new adr "Use Kafka for events"',
    '<%= config.bin %> knowledge new policy "No secrets in logs" --json',
  ]
  static override args = {
    type: Args.string({ description: 'adr, policy, pattern, spec or rule.', required: true }),
    title: Args.string({ description: 'Title of the new item.', required: true }),
  }
  static override flags = { source: Flags.string({ description: 'Local knowledge source to write into (default: the project source).' }) }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(KnowledgeNew)
    await this.callTool(knowledgeNew, { type: args.type, title: args.title, source: flags.source }, flags)
  }
}
