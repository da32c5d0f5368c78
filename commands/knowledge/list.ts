import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { knowledgeList } from '../../src/tools/knowledge/list.js'

export default class KnowledgeList extends MkCommand {
  static override summary = knowledgeList.title
  static override description = knowledgeList.description
  static override examples = ['<%= config.bin %> knowledge list', '<%= config.bin %> knowledge list --type adr --status accepted --json']
  static override flags = {
    type: Flags.string({ description: 'Only items of this type (adr, policy, pattern, spec, rule).', multiple: true }),
    layer: Flags.string({ description: 'Only items of this layer (project, team, org, company).', multiple: true }),
    status: Flags.string({ description: 'Only items with this status.', multiple: true }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(KnowledgeList)
    await this.callTool(knowledgeList, { type: flags.type, layer: flags.layer, status: flags.status }, flags)
  }
}
