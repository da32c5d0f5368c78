import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { knowledgeQuery } from '../../src/tools/knowledge/query.js'

export default class KnowledgeQuery extends MkCommand {
  static override summary = knowledgeQuery.title
  static override description = knowledgeQuery.description
  static override examples = ['<%= config.bin %> knowledge query database', '<%= config.bin %> knowledge query "error handling" --type pattern --json']
  static override args = { text: Args.string({ description: 'What to look for.' }) }
  static override flags = {
    type: Flags.string({ description: 'Only this type (adr, policy, pattern, spec, rule).', multiple: true, multipleNonGreedy: true }),
    layer: Flags.string({ description: 'Only this layer.', multiple: true, multipleNonGreedy: true }),
    tag: Flags.string({ description: 'Only items carrying this tag.', multiple: true, multipleNonGreedy: true }),
    status: Flags.string({ description: 'Only this status (default: accepted).', multiple: true, multipleNonGreedy: true }),
    limit: Flags.integer({ description: 'Most results to return (1-100).' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(KnowledgeQuery)
    await this.callTool(
      knowledgeQuery,
      { text: args.text, type: flags.type, layer: flags.layer, tags: flags.tag, status: flags.status, limit: flags.limit },
      flags,
    )
  }
}
