import * as Flags from '@oclif/core/flags'

/** Flags every memory command takes: the partitions of the agent and session layers. */
export const identityFlags = {
  agent: Flags.string({ description: 'Agent id for the agent layer (default: MK_AGENT_ID).' }),
  session: Flags.string({ description: 'Session id for the session layer (default: MK_SESSION_ID).' }),
}
