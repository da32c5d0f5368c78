import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { rulesUpsertMarkdown } from '../../src/tools/directives/ingest.js'

export default class RulesIngest extends MkCommand {
  static override summary = rulesUpsertMarkdown.title
  static override description = `${rulesUpsertMarkdown.description}\n\nPaths are relative to the workspace root; a folder (\`.cursor/rules\`, \`.clinerules\`, \`.\`) stands for the rules files in it.`
  static override examples = [
    '<%= config.bin %> rules ingest AGENTS.md CLAUDE.md',
    '<%= config.bin %> rules ingest .cursor/rules .github --json',
    '<%= config.bin %> rules ingest . --no-overwrite',
  ]
  static override strict = false
  static override args = { path: Args.string({ description: 'Rules files or folders to ingest.', required: true }) }
  static override flags = {
    overwrite: Flags.boolean({ description: 'Rewrite ingested items that differ from their source now.', default: true, allowNo: true }),
    'batch-size': Flags.integer({ description: 'Files written per hold of the knowledge lock.', default: 100 }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(RulesIngest)
    const documents = argv.map((path) => ({ path: String(path) }))
    await this.callTool(rulesUpsertMarkdown, { documents, options: { overwrite: flags.overwrite, batchSize: flags['batch-size'] } }, flags)
  }
}
