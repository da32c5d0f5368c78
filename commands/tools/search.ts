import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { registeredTools } from '../../src/tools/catalog/registered.js'
import { toolsSearch } from '../../src/tools/catalog/search.js'

export default class ToolsSearch extends MkCommand {
  static override summary = toolsSearch.title
  static override description = `${toolsSearch.description}\n\nOn the command line every tool is already there (its command): this lists the best matches. In an MCP session of the core profile, load adds them to the session's tools.`
  static override examples = ['<%= config.bin %> tools search sync knowledge sources', '<%= config.bin %> tools search delete a memory --limit 3 --json']
  static override strict = false
  static override args = { words: Args.string({ description: 'What you want to do', required: true }) }
  static override flags = {
    limit: Flags.integer({ description: 'Most tools found (1-20, default 5).' }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(ToolsSearch)
    // The tool describes the registered tools: loading the registry hands their list over.
    await registeredTools()
    await this.callTool(toolsSearch, { query: argv.map(String).join(' '), limit: flags.limit }, flags)
  }
}
