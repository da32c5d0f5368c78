import { join } from 'node:path'
import type { Workspace } from '../../../config/workspace.js'

/** Where the files store keeps a workspace's index: in its state folder, never committed. */
export function indexPathOf(workspace: Workspace): string {
  return join(workspace.stateDir, 'index.db')
}
