import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { isNodeError } from '../errors.js'
import { writeFileAtomic } from '../fs/atomic-write.js'
import { requireResolvesWithin } from '../fs/path-guard.js'
import { hookEvents, mergeHookSettings, settingsFile, type HookAgent } from './agent-settings.js'

export interface InstalledAgentHooks {
  path: string
  action: 'created' | 'updated' | 'unchanged'
  command: string
  events: string[]
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return undefined
    throw error
  }
}

/** Merge mk's hook entries into the agent's settings file in the workspace, atomically. */
export async function installAgentHooks(workspace: Workspace, agent: HookAgent, command: string): Promise<InstalledAgentHooks> {
  const path = settingsFile[agent]
  const absolute = join(workspace.root, path)
  requireResolvesWithin([{ path: workspace.root, name: 'the workspace' }], absolute, path)
  const existing = readIfPresent(absolute)
  const merged = mergeHookSettings(agent, existing, command)
  if (merged.changed) await writeFileAtomic(absolute, merged.text)
  return { path, action: existing === undefined ? 'created' : merged.changed ? 'updated' : 'unchanged', command, events: [...hookEvents[agent]] }
}
