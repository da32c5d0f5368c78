import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryRehydrate } from '../../src/tools/memory/rehydrate.js'

export default class MemoryRehydrate extends MkCommand {
  static override summary = memoryRehydrate.title
  static override description = memoryRehydrate.description
  static override strict = false
  static override examples = ['<%= config.bin %> memory rehydrate mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 --to hot --reason "needed again"']
  static override args = { ids: Args.string({ description: 'Memory ids (one or more).', required: true }) }
  static override flags = {
    to: Flags.string({ description: 'warm (default) or hot.' }),
    reason: Flags.string({ description: 'Why, in a few words.' }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryRehydrate)
    await this.callTool(
      memoryRehydrate,
      {
        ids: argv.map(String),
        target_tier: flags.to,
        reason: flags.reason,
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
