import { loadWorkspace } from '../../config/load.js'
import { clientSnippets, renderSnippets, type ClientSnippet } from './client-config.js'
import { packageName } from '../../package-root.js'
import type { McpServeOptions } from './serve.js'

/** `mk mcp --print-config`: how to start this same server from common MCP clients. */
export async function printMcpConfig(options: McpServeOptions): Promise<{ snippets: ClientSnippet[]; text: string }> {
  const workspace = await loadWorkspace({ cwd: options.cwd, env: options.env })
  const args = ['mcp', ...(options.profile === 'core' ? [] : ['--profile', options.profile]), ...(options.readOnly ? ['--read-only'] : [])]
  // A client starts the server with its own environment, so an MK_HOME the user chose must be written into the snippet.
  const env: Record<string, string> = options.env.MK_HOME === undefined || options.env.MK_HOME === '' ? {} : { MK_HOME: workspace.mkHome }
  // By the package name through npx, which runs the project's or the cached copy: the snippet
  // works whether mk is a dev dependency, installed globally or not installed yet.
  const launch = ['-y', packageName, ...args]
  const snippets = clientSnippets('mk', { command: 'npx', args: launch, env }, { command: 'npx', args: [...launch, '--cwd', workspace.root], env })
  const intro = `# Register mk (workspace ${workspace.root}) as an MCP server. npx starts the ${packageName} package;\n# with mk installed globally, "command": "mk" and the same arguments without "-y ${packageName}" start sooner.\n\n`
  return { snippets, text: intro + renderSnippets(snippets) }
}
