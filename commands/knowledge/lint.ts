import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { knowledgeLint } from '../../src/tools/knowledge/lint.js'

export default class KnowledgeLint extends MkCommand {
  static override summary = knowledgeLint.title
  static override description = knowledgeLint.description
  static override examples = ['<%= config.bin %> knowledge lint', '<%= config.bin %> knowledge lint --json']

  async run(): Promise<void> {
    const { flags } = await this.parse(KnowledgeLint)
    await this.callTool(knowledgeLint, {}, flags)
  }
}
