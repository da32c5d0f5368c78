import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { registeredTools } from '../../src/tools/catalog/registered.js'
import { toolsSkill } from '../../src/tools/catalog/skill.js'

export default class ToolsSkill extends MkCommand {
  static override summary = toolsSkill.title
  static override description = `${toolsSkill.description}\n\nPrints the document on stdout; redirect it to write the file.`
  static override examples = ['<%= config.bin %> tools skill > llm-tooling/SKILL.md']

  async run(): Promise<void> {
    const { flags } = await this.parse(ToolsSkill)
    // The tool describes the registered tools: loading the registry hands their list over.
    await registeredTools()
    await this.callTool(toolsSkill, {}, flags)
  }
}
