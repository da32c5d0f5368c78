import { MkCommand } from '../src/hosts/cli/base-command.js'
import { init } from '../src/tools/init.js'

export default class Init extends MkCommand {
  static override summary = init.title
  static override description = init.description
  static override examples = ['<%= config.bin %> init']

  async run(): Promise<void> {
    const { flags } = await this.parse(Init)
    await this.callTool(init, {}, flags)
  }
}
