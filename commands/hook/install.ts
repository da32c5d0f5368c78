import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { hookInstall } from '../../src/tools/hook/install.js'
import { defaultLauncher, hookInstallAgent } from '../../src/tools/hook/install-agent.js'

export default class HookInstall extends MkCommand {
  static override summary = "Install the pre-commit hook, or an agent's hooks with --agent"
  static override description = `${hookInstall.description}\n\nWith --agent: ${hookInstallAgent.description}`
  static override examples = [
    '<%= config.bin %> hook install',
    '<%= config.bin %> hook install --force',
    '<%= config.bin %> hook install --agent claude',
    '<%= config.bin %> hook install --agent cursor --launcher mk',
  ]
  static override flags = {
    force: Flags.boolean({ description: 'Replace an existing pre-commit hook that mk did not write (it is kept as pre-commit.mk-backup).' }),
    agent: Flags.string({ options: ['claude', 'cursor'], description: "Write this agent's hook settings instead of the pre-commit hook." }),
    launcher: Flags.string({ description: `With --agent: how the agent starts mk (default: ${defaultLauncher}).`, dependsOn: ['agent'] }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(HookInstall)
    if (flags.agent === 'claude' || flags.agent === 'cursor') {
      await this.callTool(hookInstallAgent, { agent: flags.agent, launcher: flags.launcher }, flags)
      return
    }
    await this.callTool(hookInstall, { force: flags.force }, flags)
  }
}
