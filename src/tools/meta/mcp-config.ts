import { loadWorkspace } from '../../config/load.js'
import { clientSnippets, renderSnippets, type ClientSnippet } from '../../mcp/client-config.js'
import type { McpServeOptions } from './serve-mcp.js'

/** `mk mcp --print-config`: how to start this same server from common MCP clients. */
export async function printMcpConfig(options: McpServeOptions): Promise<{ snippets: ClientSnippet[]; text: string }> {
  const workspace = await loadWorkspace({ cwd: options.cwd, env: options.env })
  const args = ['mcp', ...(options.profile === 'main' ? [] : ['--profile', options.profile]), ...(options.readOnly ? ['--read-only'] : [])]
  const snippets = clientSnippets('mk', { command: 'mk', args }, { command: 'mk', args: [...args, '--cwd', workspace.root] })
  const intro = `# Register mk (workspace ${workspace.root}) as an MCP server. "mk" must be on the PATH of the client;\n# otherwise use the absolute path of mk's bin/run.js.\n\n`
  return { snippets, text: intro + renderSnippets(snippets) }
}
