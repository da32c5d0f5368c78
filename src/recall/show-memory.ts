import type { MemoryIdentity } from '../memory/locations.js'
import { countersOf } from '../memory/counters.js'
import type { MemoryConsumer } from '../memory/visibility.js'
import type { Store } from '../stores/store.js'

/** One memory the caller may see, with its use counts and where it is kept, in memory_show's words. */
export async function showMemory(id: string, who: { identity: MemoryIdentity; consumer: MemoryConsumer }, store: Store) {
  const stored = await store.memories.findVisible(who.identity, who.consumer, id)
  const { record, folder } = stored
  const counted = countersOf(await store.activations.counters(folder), record.id)
  return {
    memoryId: record.id,
    layer: record.layer,
    content: record.content,
    tags: record.tags,
    created: record.created,
    updated: record.updated,
    ...(record.source === undefined ? {} : { source: record.source }),
    refs: record.refs,
    supersedes: record.supersedes,
    ...(record.expires === undefined ? {} : { expires: record.expires }),
    lane: record.lane,
    ...(record.owner === undefined ? {} : { owner: record.owner }),
    ...(record.producerAgentId === undefined ? {} : { producer_agent_id: record.producerAgentId }),
    ...(record.ownerAgentId === undefined ? {} : { owner_agent_id: record.ownerAgentId }),
    ...(record.ownerTeamId === undefined ? {} : { owner_team_id: record.ownerTeamId }),
    tier: record.tier ?? 'hot',
    activations: counted.activations,
    feedback_positive: counted.feedbackPositive,
    feedback_negative: counted.feedbackNegative,
    ...(counted.lastActivated === undefined ? {} : { last_activated: counted.lastActivated }),
    metadata: record.metadata,
    file: await store.memories.placeOf(stored),
  }
}
