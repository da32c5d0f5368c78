import * as Args from '@oclif/core/args'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryShow } from '../../src/tools/memory/show.js'

export default class MemoryShow extends MkCommand {
  static override summary = memoryShow.title
  static override description = memoryShow.description
  static override examples = ['<%= config.bin %> memory show mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3']
  static override args = { id: Args.string({ description: 'The memory id.', required: true }) }
  static override flags = { ...identityFlags, ...consumerFlags }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryShow)
    await this.callTool(
      memoryShow,
      { memoryId: args.id, agent: flags.agent, session: flags.session, consumer_agent_id: flags['consumer-agent'], consumer_team_id: flags['consumer-team'] },
      flags,
    )
  }
}
