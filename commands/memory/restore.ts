import * as Args from '@oclif/core/args'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { identityFlags } from '../../src/hosts/cli/memory-flags.js'
import { memoryRestore } from '../../src/tools/memory/restore.js'

export default class MemoryRestore extends MkCommand {
  static override summary = memoryRestore.title
  static override description = memoryRestore.description
  static override examples = ['<%= config.bin %> memory restore mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3']
  static override args = { id: Args.string({ description: 'The memory id.', required: true }) }
  static override flags = { ...identityFlags }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryRestore)
    await this.callTool(memoryRestore, { memoryId: args.id, agent: flags.agent, session: flags.session }, flags)
  }
}
