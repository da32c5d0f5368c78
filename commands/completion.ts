import * as Args from '@oclif/core/args'
import { MkCommand } from '../src/hosts/cli/base-command.js'
import { writeText } from '../src/hosts/cli/render.js'
import { completionScript, completionShells } from '../src/hosts/cli/completion.js'

export default class Completion extends MkCommand {
  static override summary = 'Print a shell completion script for mk'
  static override description =
    'Prints a bash script that completes mk commands and flags. Every command and flag is written into the script, so completing never starts mk. Load it from ~/.bashrc with eval "$(mk completion bash)".'
  static override examples = ['eval "$(<%= config.bin %> completion bash)"']
  static override args = {
    shell: Args.string({ description: 'The shell: bash.', required: true, options: [...completionShells] }),
  }

  async run(): Promise<void> {
    // Parsed for its checks: the shell must be one mk writes a script for.
    await this.parse(Completion)
    const commands = this.config.commands
      .filter((command) => command.hidden !== true)
      .map((command) => ({
        words: command.id.replaceAll(':', ' '),
        flags: Object.values(command.flags)
          .filter((flag) => flag.hidden !== true)
          .map((flag) => ({ name: flag.name, takesValue: flag.type === 'option' })),
      }))
    writeText(process.stdout, process.env, completionScript(commands))
  }
}
