import { loadWorkspace } from '../../config/load.js'
import { clientSnippets, renderSnippets, type ClientSnippet } from '../../mcp/client-config.js'
import type { McpServeOptions } from './serve-mcp.js'

/** `mk mcp --print-config`: how to start this same server from common MCP clients. */
export async function printMcpConfig(options: McpServeOptions): Promise<{ snippets: ClientSnippet[]; text: string }> {
  const workspace = await loadWorkspace({ cwd: options.cwd, env: options.env })
  const args = ['mcp', ...(options.profile === 'main' ? [] : ['--profile', options.profile]), ...(options.readOnly ? ['--read-only'] : [])]
  // A client starts the server with its own environment, so an MK_HOME the user chose must be written into the snippet.
  const env: Record<string, string> = options.env.MK_HOME === undefined || options.env.MK_HOME === '' ? {} : { MK_HOME: workspace.mkHome }
  const snippets = clientSnippets('mk', { command: 'mk', args, env }, { command: 'mk', args: [...args, '--cwd', workspace.root], env })
  const intro = `# Register mk (workspace ${workspace.root}) as an MCP server. "mk" must be on the PATH of the client;\n# otherwise use the absolute path of mk's bin/run.js.\n\n`
  return { snippets, text: intro + renderSnippets(snippets) }
}
