import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryMaintain } from '../../src/tools/memory/maintain.js'

export default class MemoryMaintain extends MkCommand {
  static override summary = memoryMaintain.title
  static override description = memoryMaintain.description
  static override examples = ['<%= config.bin %> memory maintain', '<%= config.bin %> memory maintain --apply --layer project']
  static override flags = {
    apply: Flags.boolean({ description: 'Write the moves (default: a dry run).' }),
    layer: Flags.string({ description: 'Only this layer (repeatable).', multiple: true, multipleNonGreedy: true }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryMaintain)
    await this.callTool(
      memoryMaintain,
      {
        apply: flags.apply || undefined,
        layers: flags.layer,
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
