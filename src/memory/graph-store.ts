import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { appendJsonLines, readJsonLines } from '../fs/json-lines.js'
import { writeFileAtomic } from '../fs/atomic-write.js'
import type { GitIdentity } from '../git/identity.js'
import { entityContent, entityNameKey, entityOf, entityTypeKey, isEntityMemory, type GraphEntity, type GraphRelation } from './graph.js'
import { newMemoryId } from './ids.js'
import type { MemoryFolder } from './locations.js'
import type { MemoryRecord } from './model.js'
import { addMemory, isStored, memoryFile, readMemoryFile, rewriteMemories, withFolderLock, type StoredMemory } from './store.js'

/** The tag every entity memory carries, so the index finds them without reading the folder. */
export const entityTag = 'entity'

/** Relations are edges between entity names, one JSON line each, beside the memories. */
function relationsFile(folder: MemoryFolder): string {
  return join(folder.dir, '.relations.jsonl')
}

const isRelation = (value: unknown): value is GraphRelation => {
  const relation = value as Partial<Record<keyof GraphRelation, unknown>> | null
  return typeof relation?.from === 'string' && typeof relation.to === 'string' && typeof relation.relationType === 'string'
}

export async function readRelations(folder: MemoryFolder): Promise<GraphRelation[]> {
  return (await readJsonLines(relationsFile(folder))).filter(isRelation)
}

export async function appendRelations(workspace: Workspace, folder: MemoryFolder, relations: readonly GraphRelation[]): Promise<void> {
  await withFolderLock(workspace, folder, () => appendJsonLines(relationsFile(folder), relations))
}

export async function replaceRelations(workspace: Workspace, folder: MemoryFolder, keep: (relation: GraphRelation) => boolean): Promise<void> {
  await withFolderLock(workspace, folder, async () => {
    const kept = (await readRelations(folder)).filter(keep)
    await writeFileAtomic(relationsFile(folder), kept.map((relation) => `${JSON.stringify(relation)}\n`).join(''))
  })
}

/** The entity memories of a folder, read from the files the index names, oldest first (the reference server's order). */
export async function readEntities(workspace: Workspace, folder: MemoryFolder, ids: readonly string[]): Promise<(StoredMemory & { entity: GraphEntity })[]> {
  const entities: (StoredMemory & { entity: GraphEntity })[] = []
  for (const id of [...ids].sort()) {
    const read = await readMemoryFile(workspace, folder, memoryFile(folder, id))
    if (isStored(read) && isEntityMemory(read.record)) entities.push({ ...read, entity: entityOf(read.record) })
  }
  return entities
}

export function entityRecord(folder: MemoryFolder, entity: GraphEntity, source: string): MemoryRecord {
  const now = new Date().toISOString()
  return {
    id: newMemoryId(),
    layer: folder.layer,
    content: entityContent(entity),
    tags: [entityTag],
    created: now,
    updated: now,
    source,
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: folder.private ? 'private' : 'shared',
    owner: folder.owner,
    metadata: { [entityNameKey]: entity.name, [entityTypeKey]: entity.entityType },
  }
}

export async function addEntity(
  workspace: Workspace,
  folder: MemoryFolder,
  record: MemoryRecord,
  written: (stored: StoredMemory) => void,
  author: GitIdentity | undefined,
): Promise<void> {
  await addMemory(workspace, folder, record, { findDuplicate: () => Promise.resolve(undefined), written }, author)
}

/** Rewrite entities whose observations changed, in one commit for a private folder. */
export async function saveEntities(
  workspace: Workspace,
  folder: MemoryFolder,
  changed: readonly { record: MemoryRecord; entity: GraphEntity }[],
  message: string,
  author: GitIdentity | undefined,
): Promise<MemoryRecord[]> {
  const records = changed.map(({ record, entity }) => ({ ...record, content: entityContent(entity), updated: new Date().toISOString() }))
  await rewriteMemories(workspace, folder, records, message, author)
  return records
}
