import type { KnowledgeProblem } from '../knowledge/model.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import type { DocumentIndex } from '../search/document-index.js'
import type { SearchMode } from '../search/types.js'
import type { DirectiveSet } from './query.js'

/**
 * The part of a store's index the directive use cases need: a store's index (src/stores/) has
 * these methods, and this floor names only them, as it stands below the stores.
 */
export interface DirectiveIndexAccess {
  open(warn: (message: string) => void): Promise<DocumentIndex>
  refresh(options: { identity: MemoryIdentity; folders: readonly MemoryFolder[]; memory: boolean; warn(message: string): void }): Promise<{
    knowledgeProblems: KnowledgeProblem[]
  }>
  embedPending(options: {
    warn(message: string): void
    progress?: ((done: number, total: number) => void) | undefined
    signal?: AbortSignal
  }): Promise<{ searchMode: SearchMode }>
}

/** The prepared directives of the index's knowledge in these statuses; the caller may keep them between calls. */
export type DirectiveSetLoader = (index: DocumentIndex, statuses: readonly string[]) => Promise<DirectiveSet>
