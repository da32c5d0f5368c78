import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../../src/cli/base-command.js'
import { MkError } from '../../src/errors.js'

const inputHint = `pass one JSON object, e.g. --input '{"type":"adr"}'`

function parseInput(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `--input is not valid JSON: ${(error as Error).message}`, { details: { hint: inputHint } })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MkError('INVALID_INPUT', '--input must be a JSON object', { details: { hint: inputHint } })
  }
  return value as Record<string, unknown>
}

async function readStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return text
}

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
    const { findRegisteredTool } = await import('../../src/tools/meta/registered.js')
    const tool = await findRegisteredTool(args.tool)
    const input = parseInput(flags.input === '-' ? await readStdin() : flags.input)
    await this.callTool(tool, input, flags, { yes: flags.yes })
  }
}
