import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { exportFormats } from '../../src/directives/export/formats.js'
import { rulesExport } from '../../src/tools/directives/export.js'
import { rulesExportWrite } from '../../src/tools/directives/export-write.js'

export default class RulesExport extends MkCommand {
  static override summary = rulesExport.title
  static override description = `${rulesExport.description}\n\nPrints the files on stdout; with --out DIR writes them into DIR (relative to the workspace root, \`.\` for the root) and leaves files with the same bytes untouched.`
  static override examples = [
    '<%= config.bin %> rules export --format agents-md > AGENTS.md',
    '<%= config.bin %> rules export --format cursor --out .',
    '<%= config.bin %> rules export --format copilot --json',
  ]
  static override flags = {
    format: Flags.option({ description: 'Which agent the files are for.', options: exportFormats, required: true })(),
    out: Flags.string({ description: 'Write the files into this folder instead of printing them.' }),
    replace: Flags.boolean({ description: 'With --out: also replace files mk did not generate (an AGENTS.md you have ingested).' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(RulesExport)
    if (flags.out === undefined) await this.callTool(rulesExport, { format: flags.format }, flags)
    else await this.callTool(rulesExportWrite, { format: flags.format, out: flags.out, replace: flags.replace }, flags)
  }
}
