import type { Tier } from '../define.js'

/** Seed 004's risk levels; an elevated tool is high risk that also needs a person's approval. */
export type Risk = 'low' | 'medium' | 'high'

export interface TierPolicy {
  risk: Risk
  readOnly: boolean
  /** MCP destructiveHint: may the tool change or remove what is already there, beyond adding? */
  destructive: boolean
  /** MCP openWorldHint: may the tool reach beyond this machine (a git remote)? */
  openWorld: boolean
  sideEffects: string
  /** Available when MK_READ_ONLY=1 and in the MCP worker profile. */
  availableReadOnly: boolean
  needsApproval: boolean
  /** Calls one caller (an MCP server's client, a team server's tenant) may make per minute, burst included. */
  requestsPerMinute: number
}

/**
 * What a tier promises, in one table, so the MCP annotations, the manifest and the
 * skill document describe a tool's risk the same way.
 */
export const tierPolicies: Record<Tier, TierPolicy> = {
  read_only: {
    openWorld: false,
    risk: 'low',
    readOnly: true,
    destructive: false,
    sideEffects: 'none: reads files and the index (it may build or refresh the derived index under .mk/)',
    availableReadOnly: true,
    needsApproval: false,
    requestsPerMinute: 600,
  },
  workspace: {
    openWorld: false,
    risk: 'medium',
    readOnly: false,
    destructive: false,
    sideEffects:
      "writes mk's own files: knowledge and memories (in the workspace, or private ones under MK_HOME), git hooks, the derived .mk/ index; git can review and revert them",
    availableReadOnly: false,
    needsApproval: false,
    requestsPerMinute: 240,
  },
  system: {
    openWorld: true,
    risk: 'high',
    readOnly: false,
    destructive: true,
    sideEffects: "changes state beyond mk's own files: cloned sources, remote repositories",
    availableReadOnly: false,
    needsApproval: false,
    requestsPerMinute: 30,
  },
  elevated: {
    openWorld: false,
    risk: 'high',
    readOnly: false,
    destructive: true,
    sideEffects: 'destructive or shared change (for example deleting from a shared layer); a person must approve each call',
    availableReadOnly: false,
    needsApproval: true,
    requestsPerMinute: 30,
  },
}
