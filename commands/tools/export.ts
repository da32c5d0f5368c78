import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { registeredTools } from '../../src/tools/catalog/registered.js'
import { exportFormats } from '../../src/tools/generate/function-schemas.js'
import { toolsExport } from '../../src/tools/catalog/export.js'

export default class ToolsExport extends MkCommand {
  static override summary = toolsExport.title
  static override description = toolsExport.description
  static override examples = ['<%= config.bin %> tools export --format anthropic > llm-tooling/anthropic.tools.json']
  static override flags = {
    format: Flags.option({ description: 'API shape of the definitions.', options: exportFormats, required: true })(),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(ToolsExport)
    // The tool describes the registered tools: loading the registry hands their list over.
    await registeredTools()
    await this.callTool(toolsExport, { format: flags.format }, flags)
  }
}
