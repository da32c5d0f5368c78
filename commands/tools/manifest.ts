import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { registeredTools } from '../../src/tools/catalog/registered.js'
import { toolsManifest } from '../../src/tools/catalog/manifest.js'

export default class ToolsManifest extends MkCommand {
  static override summary = toolsManifest.title
  static override description = `${toolsManifest.description}\n\nPrints the manifest on stdout; redirect it to write the file.`
  static override examples = ['<%= config.bin %> tools manifest > llm-tooling/tool.manifest.json']

  async run(): Promise<void> {
    const { flags } = await this.parse(ToolsManifest)
    // The tool describes the registered tools: loading the registry hands their list over.
    await registeredTools()
    await this.callTool(toolsManifest, {}, flags)
  }
}
