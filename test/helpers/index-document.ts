import type { IndexDocument } from '../../src/search/types.js'

/** A project memory as the index holds one: the n-th of a test's, its id and time from n. */
export const projectMemoryDocument = (text: string, n: number): IndexDocument => ({
  id: `mem_${String(n).padStart(26, '0')}`,
  kind: 'memory',
  layer: 'project',
  content: text,
  tags: [],
  source: 'project',
  updatedAt: n,
})
