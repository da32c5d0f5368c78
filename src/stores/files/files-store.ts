import type { Store, StorePlace } from '../store.js'
import { FilesActivations, FilesGraph, FilesOutcomes, FilesReceipts, FilesTiers } from './ledgers.js'
import { FilesMemories } from './memories.js'
import { FilesIndex } from './search-index.js'

/**
 * The embedded store: memories as Markdown files in the workspace and MK_HOME, their history in
 * MK_HOME's git repository, the ledgers as append-only files beside them, and a SQLite index
 * under the state folder derived from all of it (src/stores/files/indexing/ keeps it fresh).
 */
export function openFilesStore(place: StorePlace): Store {
  const { workspace } = place
  const index = new FilesIndex(place)
  return {
    kind: 'files',
    memories: new FilesMemories(workspace, index),
    index,
    activations: new FilesActivations(workspace),
    tiers: new FilesTiers(),
    receipts: new FilesReceipts(workspace),
    outcomes: new FilesOutcomes(workspace),
    graph: new FilesGraph(workspace, index),
  }
}
