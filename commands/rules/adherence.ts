import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { rulesAdherence } from '../../src/tools/hook/adherence.js'

export default class RulesAdherence extends MkCommand {
  static override summary = rulesAdherence.title
  static override description = `${rulesAdherence.description}\n\nAn edit is judged on its own text (old_string against new_string): a transcript does not hold the file as it was, so a Write over a file that already broke a rule counts as an attempt.`
  static override examples = ['<%= config.bin %> rules adherence', '<%= config.bin %> rules adherence --transcript ~/.claude/projects/-home-me-app --json']
  static override flags = {
    transcript: Flags.string({ description: 'A transcript file (*.jsonl) or a folder of them (repeatable).', multiple: true }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(RulesAdherence)
    await this.callTool(rulesAdherence, { transcripts: flags.transcript }, flags)
  }
}
