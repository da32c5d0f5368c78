import type { AnyTool } from '../define.js'

/**
 * Tools the workspace's local `mk serve --socket` answers besides the profile's: the agent hooks, so an
 * edit check runs in a process whose modules and knowledge are already warm. They are not in the
 * registry (agents call the tools themselves) and a server on a TCP port never offers them.
 */
export async function socketOnlyTools(): Promise<AnyTool[]> {
  const [{ hookClaude }, { hookCursor }] = await Promise.all([import('../hook/claude.js'), import('../hook/cursor.js')])
  return [hookClaude, hookCursor]
}
