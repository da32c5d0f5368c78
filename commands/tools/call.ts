import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/hosts/cli/base-command.js'
import { parseJsonObject, readStdin } from '../../src/hosts/cli/json-input.js'

const inputHint = `pass one JSON object, e.g. --input '{"type":"adr"}'`

export default class ToolsCall extends MkCommand {
  static override summary = 'Call any mk tool by name with a JSON input'
  static override description =
    'Runs one registered tool exactly as the MCP server would: the input is the JSON object the tool schema describes (see mk tools manifest or SKILL.md). With --json, stdout is the output object or the error object.'
  static override examples = [
    `<%= config.bin %> tools call knowledge_list --input '{"type":"adr","status":"accepted"}' --json`,
    `echo '{}' | <%= config.bin %> tools call knowledge_list --input - --json`,
  ]
  static override args = {
    tool: Args.string({ description: 'Tool name, e.g. knowledge_list', required: true }),
  }
  static override flags = {
    input: Flags.string({ description: 'The input as a JSON object; "-" reads it from stdin.', default: '{}' }),
    yes: Flags.boolean({ description: 'Approve an elevated tool without asking.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ToolsCall)
    const { findRegisteredTool } = await import('../../src/tools/catalog/registered.js')
    const tool = await findRegisteredTool(args.tool)
    const input = parseJsonObject(flags.input === '-' ? await readStdin() : flags.input, '--input', inputHint)
    await this.callTool(tool, input, flags, { yes: flags.yes })
  }
}
