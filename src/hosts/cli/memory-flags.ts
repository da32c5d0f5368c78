import * as Flags from '@oclif/core/flags'

/** Flags every memory command takes: the partitions of the agent and session layers. */
export const identityFlags = {
  agent: Flags.string({ description: 'Agent id for the agent layer (default: MK_AGENT_ID).' }),
  session: Flags.string({ description: 'Session id for the session layer (default: MK_SESSION_ID).' }),
}

/** Flags of the commands that read memories: who is reading, for private memories of shared layers. */
export const consumerFlags = {
  'consumer-agent': Flags.string({ description: 'The agent reading, for private memories it owns (default: MK_AGENT_ID).' }),
  'consumer-team': Flags.string({ description: "The reading agent's team, for private memories the team owns (default: MK_TEAM_ID)." }),
}
