import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../src/hosts/cli/base-command.js'
import { writeJson, writeText } from '../src/hosts/cli/render.js'
import { mcpProfiles } from '../src/tools/catalog/profiles.js'

export default class Mcp extends MkCommand {
  static override summary = 'Serve mk tools to an MCP client over stdio'
  static override description = `Starts an MCP server on stdin/stdout. The client (Claude Code, Cursor, VS Code, ...) starts it; use --print-config for the snippet to register it.

Profiles decide which tools exist: core (the default) offers the 10 tools most tasks need, in about 4,400 tokens of tool definitions; main offers all (about 31,000 tokens); worker offers only read-only tools, so a worker agent cannot store, delete or sync. --read-only (or MK_READ_ONLY=1) refuses every tool that changes state. Elevated calls (deleting a memory from a shared layer) ask the person through the client (MCP elicitation) and are refused when the client cannot ask. Knowledge items and memories are also resources (mk://knowledge/<id>, mk://memory/<id>), and the prompt task-start gathers the rules and what else is relevant to a task.`
  static override examples = [
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --profile main',
    '<%= config.bin %> mcp --profile worker',
    '<%= config.bin %> mcp --print-config',
  ]
  static override flags = {
    profile: Flags.option({ description: 'Which tools to offer.', options: mcpProfiles, default: 'core' as const })(),
    'read-only': Flags.boolean({ description: 'Refuse every tool that changes state (same as MK_READ_ONLY=1).' }),
    'print-config': Flags.boolean({ description: 'Print the snippets that register mk in common MCP clients, then exit.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp)
    if (flags['print-config']) {
      const { printMcpConfig } = await import('../src/hosts/mcp/print-config.js')
      const printed = await printMcpConfig({ cwd: flags.cwd ?? process.cwd(), env: process.env, profile: flags.profile, readOnly: flags['read-only'] })
      if (flags.json) writeJson(process.stdout, printed.snippets)
      else writeText(process.stdout, process.env, printed.text)
      return
    }
    const { serveMcp } = await import('../src/hosts/mcp/serve.js')
    await serveMcp({ cwd: flags.cwd ?? process.cwd(), env: process.env, profile: flags.profile, readOnly: flags['read-only'] })
  }
}
