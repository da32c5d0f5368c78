import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { consumerFlags, identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryConsolidate } from '../../src/tools/memory/consolidate.js'

export default class MemoryConsolidate extends MkCommand {
  static override summary = memoryConsolidate.title
  static override description = memoryConsolidate.description
  static override examples = ['<%= config.bin %> memory consolidate', '<%= config.bin %> memory consolidate --apply --layer project']
  static override flags = {
    apply: Flags.boolean({ description: 'Write the aliases (default: a dry run).' }),
    layer: Flags.string({ description: 'Only this layer (repeatable).', multiple: true, multipleNonGreedy: true }),
    'allow-contradictory': Flags.boolean({ description: 'Also merge pairs that look contradictory; the commit message says so.' }),
    ...identityFlags,
    ...consumerFlags,
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryConsolidate)
    await this.callTool(
      memoryConsolidate,
      {
        apply: flags.apply || undefined,
        layers: flags.layer,
        allow_contradictory: flags['allow-contradictory'] || undefined,
        agent: flags.agent,
        session: flags.session,
        consumer_agent_id: flags['consumer-agent'],
        consumer_team_id: flags['consumer-team'],
      },
      flags,
    )
  }
}
