import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryActivate } from '../../src/tools/memory/activate.js'

export default class MemoryActivate extends MkCommand {
  static override summary = memoryActivate.title
  static override description = memoryActivate.description
  static override strict = false
  static override examples = ['<%= config.bin %> memory activate mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3 --outcome positive --reason "picked the right database"']
  static override args = { ids: Args.string({ description: 'Memory ids (one or more).', required: true }) }
  static override flags = {
    outcome: Flags.string({ description: 'positive, negative or neutral (default).' }),
    reason: Flags.string({ description: 'Why, in a few words.' }),
    'run-id': Flags.string({ description: 'The agent run they were used in.' }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryActivate)
    await this.callTool(
      memoryActivate,
      {
        ids: argv.map(String),
        outcome: flags.outcome,
        reason: flags.reason,
        run_id: flags['run-id'],
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
