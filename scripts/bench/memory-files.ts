import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { formatMemory } from '../../src/memory/format.js'
import { newMemoryId } from '../../src/memory/ids.js'

export interface BenchMemory {
  content: string
  /** ISO time it was created and last changed. */
  when: string
  source: string
  tags?: string[]
}

/** One shared project memory file in `folder`, written as mk writes it; returns its id. */
export async function writeProjectMemory(folder: string, memory: BenchMemory): Promise<string> {
  const id = newMemoryId()
  const record = {
    id,
    layer: 'project' as const,
    content: memory.content,
    tags: memory.tags ?? [],
    created: memory.when,
    updated: memory.when,
    source: memory.source,
    refs: [],
    supersedes: [],
    expires: undefined,
    lane: 'shared' as const,
    owner: undefined,
    metadata: {},
  }
  await writeFile(join(folder, `${id}.md`), formatMemory(record))
  return id
}
