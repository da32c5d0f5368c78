import matter from 'gray-matter'
import { memoryLayers, type MemoryLayer } from '../config/layers.js'
import { memoryLanes, memoryTiers, type MemoryLane, type MemoryRecord, type MemoryTier, type MetadataValue, type Rehydration } from './model.js'
import { isMemoryId } from './ids.js'

/** The file a person reads: YAML frontmatter, then the content as the body. */
export function formatMemory(record: MemoryRecord): string {
  const frontmatter: Record<string, unknown> = {
    id: record.id,
    layer: record.layer,
    tags: record.tags,
    created: record.created,
    updated: record.updated,
    ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.refs.length === 0 ? {} : { refs: record.refs }),
    ...(record.supersedes.length === 0 ? {} : { supersedes: record.supersedes }),
    ...(record.expires === undefined ? {} : { expires: record.expires }),
    lane: record.lane,
    ...(record.owner === undefined ? {} : { owner: record.owner }),
    ...(record.producerAgentId === undefined ? {} : { producer_agent_id: record.producerAgentId }),
    ...(record.ownerAgentId === undefined ? {} : { owner_agent_id: record.ownerAgentId }),
    ...(record.ownerTeamId === undefined ? {} : { owner_team_id: record.ownerTeamId }),
    ...(Object.keys(record.metadata).length === 0 ? {} : { metadata: record.metadata }),
    ...(record.aliasOf === undefined ? {} : { alias_of: record.aliasOf }),
    ...(record.mergedFrom === undefined || record.mergedFrom.length === 0 ? {} : { merged_from: record.mergedFrom, merged_count: record.mergedFrom.length }),
    ...(record.lastRehydrated === undefined
      ? {}
      : {
          last_rehydrated_at: record.lastRehydrated.at,
          last_rehydrated_from: record.lastRehydrated.from,
          last_rehydrated_to: record.lastRehydrated.to,
          ...(record.lastRehydrated.reason === undefined ? {} : { last_rehydrated_reason: record.lastRehydrated.reason }),
        }),
  }
  return matter.stringify(`${record.content}\n`, frontmatter)
}

export class MemoryFormatError extends Error {}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) throw new MemoryFormatError(`"${field}" must be a list of strings`)
  return value
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (value instanceof Date) return value.toISOString()
  if (typeof value !== 'string') throw new MemoryFormatError(`"${field}" must be a string`)
  return value
}

function requiredString(value: unknown, field: string): string {
  const text = optionalString(value, field)
  if (text === undefined || text === '') throw new MemoryFormatError(`"${field}" is missing`)
  return text
}

function tierOf(value: unknown, field: string): MemoryTier | undefined {
  const tier = optionalString(value, field)
  if (tier === undefined) return undefined
  if (!(memoryTiers as readonly string[]).includes(tier)) throw new MemoryFormatError(`"${field}" ${tier} is not one of ${memoryTiers.join(', ')}`)
  return tier as MemoryTier
}

function rehydrationOf(fields: Record<string, unknown>): Rehydration | undefined {
  const at = optionalString(fields.last_rehydrated_at, 'last_rehydrated_at')
  const from = tierOf(fields.last_rehydrated_from, 'last_rehydrated_from')
  const to = tierOf(fields.last_rehydrated_to, 'last_rehydrated_to')
  if (at === undefined || from === undefined || to === undefined) return undefined
  return { at, from, to, reason: optionalString(fields.last_rehydrated_reason, 'last_rehydrated_reason') }
}

function metadataOf(value: unknown): Record<string, MetadataValue> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw new MemoryFormatError('"metadata" must be a mapping')
  const entries = Object.entries(value as Record<string, unknown>)
  for (const [key, entry] of entries) {
    if (!['string', 'number', 'boolean'].includes(typeof entry)) throw new MemoryFormatError(`"metadata.${key}" must be a string, number or boolean`)
  }
  return Object.fromEntries(entries) as Record<string, MetadataValue>
}

/**
 * Parse a memory file; a file that is not a valid memory throws MemoryFormatError saying what is
 * wrong. A file that names no lane gets its folder's: private in MK_HOME, shared in the repository.
 */
export function parseMemory(text: string, defaultLane: MemoryLane = 'private'): MemoryRecord {
  if (!/^---\r?\n/.test(text)) throw new MemoryFormatError('no frontmatter (the file must start with ---)')
  let parsed: matter.GrayMatterFile<string>
  try {
    // Options bypass gray-matter's cache, which would hand two files the same data object.
    parsed = matter(text, {})
  } catch (error) {
    throw new MemoryFormatError(`malformed frontmatter: ${(error as { reason?: string }).reason ?? (error as Error).message.split('\n')[0] ?? ''}`)
  }
  const data: unknown = parsed.data
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new MemoryFormatError('frontmatter is not a mapping')
  const fields = data as Record<string, unknown>
  const id = requiredString(fields.id, 'id')
  if (!isMemoryId(id)) throw new MemoryFormatError(`"id" ${id} is not a memory id (mem_ + ULID)`)
  const layer = requiredString(fields.layer, 'layer')
  if (!(memoryLayers as readonly string[]).includes(layer)) throw new MemoryFormatError(`"layer" ${layer} is not one of ${memoryLayers.join(', ')}`)
  const lane = optionalString(fields.lane, 'lane') ?? defaultLane
  if (!(memoryLanes as readonly string[]).includes(lane)) throw new MemoryFormatError(`"lane" ${lane} is not private or shared`)
  const content = parsed.content.replace(/\r?\n$/, '')
  if (content.trim() === '') throw new MemoryFormatError('the memory has no content')
  return {
    id,
    layer: layer as MemoryLayer,
    content,
    tags: stringList(fields.tags, 'tags'),
    created: requiredString(fields.created, 'created'),
    updated: optionalString(fields.updated, 'updated') ?? requiredString(fields.created, 'created'),
    source: optionalString(fields.source, 'source'),
    refs: stringList(fields.refs, 'refs'),
    supersedes: stringList(fields.supersedes, 'supersedes'),
    expires: optionalString(fields.expires, 'expires'),
    lane: lane as MemoryLane,
    owner: optionalString(fields.owner, 'owner'),
    producerAgentId: optionalString(fields.producer_agent_id, 'producer_agent_id'),
    ownerAgentId: optionalString(fields.owner_agent_id, 'owner_agent_id'),
    ownerTeamId: optionalString(fields.owner_team_id, 'owner_team_id'),
    metadata: metadataOf(fields.metadata),
    tier: tierOf(fields.tier, 'tier') ?? 'hot',
    lastRehydrated: rehydrationOf(fields),
    aliasOf: optionalString(fields.alias_of, 'alias_of'),
    mergedFrom: fields.merged_from === undefined ? undefined : stringList(fields.merged_from, 'merged_from'),
  }
}
