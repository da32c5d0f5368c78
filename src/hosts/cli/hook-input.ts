/** The agents whose hooks mk answers (`mk hook claude`, `mk hook cursor`). */
export type HookAgent = 'claude' | 'cursor'

/**
 * The project a hook answers for, when the agent names it: Claude Code sets CLAUDE_PROJECT_DIR (the
 * session's own folder may be a subfolder the agent cd'ed into, where no knowledge is found); Cursor
 * sends workspace_roots. Undefined: the folder the hook was started in.
 */
export function hookProjectFolder(agent: HookAgent, event: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  if (agent === 'claude') {
    const projectDir = env.CLAUDE_PROJECT_DIR
    return projectDir === undefined || projectDir === '' ? undefined : projectDir
  }
  const roots = event.workspace_roots
  return Array.isArray(roots) && typeof roots[0] === 'string' && roots[0] !== '' ? roots[0] : undefined
}
