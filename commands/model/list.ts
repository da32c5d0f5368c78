import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { modelList } from '../../src/tools/model/list.js'

export default class ModelList extends MkCommand {
  static override summary = modelList.title
  static override description = modelList.description
  static override examples = ['<%= config.bin %> model list', '<%= config.bin %> model list --json']

  async run(): Promise<void> {
    const { flags } = await this.parse(ModelList)
    await this.callTool(modelList, {}, flags)
  }
}
