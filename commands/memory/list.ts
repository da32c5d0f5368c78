import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryList } from '../../src/tools/memory/list.js'

export default class MemoryList extends MkCommand {
  static override summary = memoryList.title
  static override description = memoryList.description
  static override examples = ['<%= config.bin %> memory list', '<%= config.bin %> memory list --layer project --tag database']
  static override flags = {
    layer: Flags.string({ description: 'Only this layer (repeatable).', multiple: true }),
    tag: Flags.string({ description: 'Only memories with this tag (repeatable).', multiple: true }),
    limit: Flags.integer({ description: 'Most memories (1-1000, default 50).' }),
    'include-expired': Flags.boolean({ description: 'Also list expired memories.' }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryList)
    await this.callTool(
      memoryList,
      {
        layers: flags.layer,
        tags: flags.tag,
        limit: flags.limit,
        includeExpired: flags['include-expired'],
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
