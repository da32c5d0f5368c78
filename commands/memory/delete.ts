import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryDelete } from '../../src/tools/memory/delete.js'

export default class MemoryDelete extends MkCommand {
  static override summary = memoryDelete.title
  static override description = memoryDelete.description
  static override examples = [
    '<%= config.bin %> memory delete mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3',
    '<%= config.bin %> memory delete mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 --yes',
  ]
  static override args = { id: Args.string({ description: 'The memory id.', required: true }) }
  static override flags = {
    ...identityFlags,
    ...consumerFlags,
    yes: Flags.boolean({ description: 'Approve deleting from a shared layer (project, team, org, company) without asking.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryDelete)
    await this.callTool(
      memoryDelete,
      { memoryId: args.id, agent: flags.agent, session: flags.session, consumer_agent_id: flags['consumer-agent'], consumer_team_id: flags['consumer-team'] },
      flags,
      { yes: flags.yes },
    )
  }
}
