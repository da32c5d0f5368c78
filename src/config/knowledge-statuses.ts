/**
 * The statuses mk's logic knows; only accepted items are enforced, and `.mkrc` maps other words
 * onto these. `rejected` is not in mk's own vocabulary but MADR and Nygard ADRs use it, and they
 * must load unchanged. Here, not in src/knowledge, because the configuration validates against it.
 */
export const knowledgeStatuses = ['draft', 'proposed', 'accepted', 'rejected', 'deprecated', 'superseded'] as const
export type KnowledgeStatus = (typeof knowledgeStatuses)[number]
