export interface LaunchCommand {
  command: string
  /** Arguments after the command, e.g. ["mcp", "--profile", "worker"]. */
  args: string[]
  /** Environment the client must set for the server (MK_HOME when the user set one); empty for none. */
  env: Record<string, string>
}

export interface ClientSnippet {
  client: string
  /** Where the snippet goes. */
  file: string
  language: 'json' | 'toml' | 'sh'
  text: string
}

function tomlString(text: string): string {
  return JSON.stringify(text)
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}

/**
 * How to register `mk mcp` in common MCP clients. Clients started from a project
 * folder get the plain launch; clients started elsewhere (desktop apps, a user-wide
 * config) get `--cwd` so mk finds the workspace.
 */
export function clientSnippets(name: string, projectLaunch: LaunchCommand, userLaunch: LaunchCommand): ClientSnippet[] {
  const stdio = (launch: LaunchCommand): Record<string, unknown> => ({
    command: launch.command,
    args: launch.args,
    ...(Object.keys(launch.env).length === 0 ? {} : { env: launch.env }),
  })
  const claudeEnv = Object.entries(projectLaunch.env).map(([key, value]) => `--env ${shellWord(`${key}=${value}`)} `)
  const codexEnv = Object.entries(userLaunch.env).map(([key, value]) => `${key} = ${tomlString(value)}`)
  return [
    {
      client: 'Claude Code',
      file: 'run in the project folder',
      language: 'sh',
      text: `claude mcp add --scope project ${claudeEnv.join('')}${name} -- ${[projectLaunch.command, ...projectLaunch.args].map(shellWord).join(' ')}`,
    },
    {
      client: 'Claude Desktop',
      file: 'claude_desktop_config.json (Settings > Developer > Edit Config)',
      language: 'json',
      text: JSON.stringify({ mcpServers: { [name]: stdio(userLaunch) } }, null, 2),
    },
    {
      client: 'Cursor',
      file: '.cursor/mcp.json in the project',
      language: 'json',
      text: JSON.stringify({ mcpServers: { [name]: stdio(projectLaunch) } }, null, 2),
    },
    {
      client: 'VS Code (GitHub Copilot)',
      file: '.vscode/mcp.json in the project',
      language: 'json',
      text: JSON.stringify({ servers: { [name]: { type: 'stdio', ...stdio(projectLaunch) } } }, null, 2),
    },
    {
      client: 'OpenAI Codex CLI',
      file: '~/.codex/config.toml',
      language: 'toml',
      text: `[mcp_servers.${name}]\ncommand = ${tomlString(userLaunch.command)}\nargs = [${userLaunch.args.map(tomlString).join(', ')}]${codexEnv.length === 0 ? '' : `\nenv = { ${codexEnv.join(', ')} }`}`,
    },
    {
      client: 'Gemini CLI',
      file: '.gemini/settings.json in the project',
      language: 'json',
      text: JSON.stringify({ mcpServers: { [name]: stdio(projectLaunch) } }, null, 2),
    },
  ]
}

export function renderSnippets(snippets: readonly ClientSnippet[]): string {
  return snippets.map((snippet) => `# ${snippet.client}: ${snippet.file}\n${snippet.text}\n`).join('\n')
}
