import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { formatMemory } from '../../src/memory/format.js'
import { newMemoryId } from '../../src/memory/ids.js'
import type { MemoryRecord } from '../../src/memory/model.js'

export interface BenchMemory {
  content: string
  /** ISO time it was created and last changed. */
  when: string
  source: string
  tags?: string[]
}

/** A shared project memory as mk writes one, with a new id. */
export function projectMemoryRecord(memory: BenchMemory): MemoryRecord {
  return {
    id: newMemoryId(),
    layer: 'project',
    content: memory.content,
    tags: memory.tags ?? [],
    created: memory.when,
    updated: memory.when,
    source: memory.source,
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: 'shared',
    owner: undefined,
    metadata: {},
  }
}

/** One shared project memory file in `folder`, written as mk writes it; returns its id. */
export async function writeProjectMemory(folder: string, memory: BenchMemory): Promise<string> {
  const record = projectMemoryRecord(memory)
  await writeFile(join(folder, `${record.id}.md`), formatMemory(record))
  return record.id
}
