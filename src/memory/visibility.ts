import type { MemoryFolder } from './locations.js'
import type { MemoryRecord } from './model.js'

/** The agent and team reading memories: only they see the private memories they own. */
export interface MemoryConsumer {
  agentId: string | undefined
  teamId: string | undefined
}

/** Who may see a memory beyond everyone who can read its folder; undefined when everyone can. */
export interface MemoryRestriction {
  ownerAgentId?: string
  ownerTeamId?: string
}

/** A private memory in a shared layer is restricted to its owners; a private folder (agent, session, user) already is. */
export function restrictionOf(
  record: Pick<MemoryRecord, 'lane' | 'ownerAgentId' | 'ownerTeamId'>,
  folder: Pick<MemoryFolder, 'private'>,
): MemoryRestriction | undefined {
  if (folder.private || record.lane !== 'private') return undefined
  return {
    ...(record.ownerAgentId === undefined ? {} : { ownerAgentId: record.ownerAgentId }),
    ...(record.ownerTeamId === undefined ? {} : { ownerTeamId: record.ownerTeamId }),
  }
}

export function isVisibleTo(restriction: MemoryRestriction | undefined, consumer: MemoryConsumer): boolean {
  if (restriction === undefined) return true
  return (
    (restriction.ownerAgentId !== undefined && restriction.ownerAgentId === consumer.agentId) ||
    (restriction.ownerTeamId !== undefined && restriction.ownerTeamId === consumer.teamId)
  )
}

/** A private memory in a layer shared through git must say whose it is; without an owner nobody may see it, so it is not read at all. */
export function unownedPrivateProblem(
  record: Pick<MemoryRecord, 'lane' | 'ownerAgentId' | 'ownerTeamId'>,
  folder: Pick<MemoryFolder, 'private' | 'layer'>,
): string | undefined {
  if (folder.private || record.lane !== 'private' || record.ownerAgentId !== undefined || record.ownerTeamId !== undefined) return undefined
  return `it is a private memory in the ${folder.layer} layer with no owner_agent_id or owner_team_id (invalid_private_memory_owner): name its owner, or set lane: shared`
}
