/** Who may see a document beyond everyone who can read its source; undefined when everyone can. The engine knows owners, not features. */
export interface DocumentRestriction {
  ownerAgentId?: string
  ownerTeamId?: string
}
