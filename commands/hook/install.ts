import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { hookInstall } from '../../src/tools/hook/install.js'

export default class HookInstall extends MkCommand {
  static override summary = hookInstall.title
  static override description = hookInstall.description
  static override examples = ['<%= config.bin %> hook install', '<%= config.bin %> hook install --force']
  static override flags = {
    force: Flags.boolean({ description: 'Replace an existing pre-commit hook that mk did not write (it is kept as pre-commit.mk-backup).' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(HookInstall)
    await this.callTool(hookInstall, { force: flags.force }, flags)
  }
}
