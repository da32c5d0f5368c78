import * as Args from '@oclif/core/args'
import { MkCommand } from '../../src/cli/base-command.js'
import { identityFlags } from '../../src/cli/memory-flags.js'
import { memoryDelete } from '../../src/tools/memory/delete.js'

export default class MemoryDelete extends MkCommand {
  static override summary = memoryDelete.title
  static override description = memoryDelete.description
  static override examples = ['<%= config.bin %> memory delete mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3']
  static override args = { id: Args.string({ description: 'The memory id.', required: true }) }
  static override flags = { ...identityFlags }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryDelete)
    await this.callTool(memoryDelete, { memoryId: args.id, agent: flags.agent, session: flags.session }, flags)
  }
}
