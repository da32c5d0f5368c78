import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../src/hosts/cli/base-command.js'
import { doctorCheck } from '../src/tools/doctor/check.js'

export default class Doctor extends MkCommand {
  static override summary = doctorCheck.title
  static override description = doctorCheck.description
  static override examples = ['<%= config.bin %> doctor', '<%= config.bin %> doctor --offline --json']
  static override flags = {
    offline: Flags.boolean({ description: 'Do not contact git remotes.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Doctor)
    await this.callTool(doctorCheck, { offline: flags.offline }, flags)
  }
}
