import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { memoryReceipts } from '../../src/tools/memory/receipts.js'

export default class MemoryReceipts extends MkCommand {
  static override summary = memoryReceipts.title
  static override description = memoryReceipts.description
  static override examples = ['<%= config.bin %> memory receipts --since 2026-11-20', '<%= config.bin %> memory receipts --agent a1 --json']
  static override flags = {
    since: Flags.string({ description: 'Only receipts from this ISO date or time on.' }),
    agent: Flags.string({ description: 'Only recalls by this agent.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryReceipts)
    await this.callTool(memoryReceipts, { since: flags.since, agent_id: flags.agent }, flags)
  }
}
