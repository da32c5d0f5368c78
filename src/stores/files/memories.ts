import { existsSync, readFileSync, statSync } from 'node:fs'
import type { Workspace } from '../../config/workspace.js'
import { MkError } from '../../errors.js'
import type { KnowledgeProblem } from '../../knowledge/model.js'
import type { DeletedVersion } from '../../memory/history.js'
import type { MemoryFolder, MemoryIdentity } from '../../memory/locations.js'
import type { MemoryRecord, MemoryTier } from '../../memory/model.js'
import type { AddOutcome, StoredMemory, UnreadableMemory } from '../../memory/store.js'
import type { MemoryConsumer } from '../../memory/visibility.js'
import type { AddOptions, MemoryStore, WriteOptions } from '../memories.js'
import type { FilesIndex } from './search-index.js'

/**
 * Each memory file's refs as last read, by path, for as long as the process lives: a search
 * marks its page's stale memories, and reading each file whole (with its tier) was a third of a
 * warm search's CPU in a long-lived process at 1,000 memories.
 */
const refsByFile = new Map<string, { signature: string; refs: string[] }>()
const mostRefsKept = 20_000

// Loaded on first use: a command that reads no memory never pays for the memory modules.
const fileStore = () => import('../../memory/store.js')
const memoryFormat = () => import('../../memory/format.js')
const documents = () => import('./indexing/refresh.js')

/**
 * The refs a memory file names: none when its text never says "refs" (most memories, whose
 * frontmatter leaves the key out), without parsing it; none when it cannot be read or parsed.
 * Reading each file of a search's page whole, with its tier, was 1.7 ms of a 18 ms warm search
 * at 10,000 memories.
 */
async function refsOfFile(file: string): Promise<string[]> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return []
  }
  if (!text.includes('refs')) return []
  const { parseMemory, MemoryFormatError } = await memoryFormat()
  try {
    return parseMemory(text).refs
  } catch (error) {
    if (error instanceof MemoryFormatError) return []
    throw error
  }
}

/** Memories as Markdown files per folder; private folders' changes are commits of MK_HOME's git history. Every write keeps the index in step. */
export class FilesMemories implements MemoryStore {
  constructor(
    private readonly workspace: Workspace,
    private readonly index: FilesIndex,
  ) {}

  async ids(folder: MemoryFolder): Promise<string[]> {
    const { listMemoryFiles } = await fileStore()
    return listMemoryFiles(folder).map((name) => name.slice(0, -'.md'.length))
  }

  async read(folder: MemoryFolder, id: string): Promise<StoredMemory | UnreadableMemory | undefined> {
    const { memoryFile, readMemoryFile } = await fileStore()
    const file = memoryFile(folder, id)
    return existsSync(file) ? readMemoryFile(this.workspace, folder, file) : undefined
  }

  async refs(folder: MemoryFolder, ids: readonly string[]): Promise<Map<string, string[]>> {
    const { memoryFile } = await fileStore()
    const found = new Map<string, string[]>()
    for (const id of ids) {
      const file = memoryFile(folder, id)
      // Synchronous, like the folder's look before it: ten stats a search, each cheaper than a trip through libuv's pool.
      const info = statSync(file, { throwIfNoEntry: false })
      if (info === undefined) continue
      // A write replaces the file (a new inode); the refs are read again only when it changed.
      const signature = `${info.ino}:${info.size}:${info.mtimeMs}`
      let known = refsByFile.get(file)
      if (known?.signature !== signature) {
        known = { signature, refs: await refsOfFile(file) }
        if (refsByFile.size >= mostRefsKept) refsByFile.clear()
        refsByFile.set(file, known)
      }
      if (known.refs.length > 0) found.set(id, known.refs)
    }
    return found
  }

  async find(identity: MemoryIdentity, id: string): Promise<StoredMemory> {
    return (await fileStore()).findMemory(this.workspace, identity, id)
  }

  async findVisible(identity: MemoryIdentity, consumer: MemoryConsumer, id: string): Promise<StoredMemory> {
    return (await fileStore()).findVisibleMemory(this.workspace, identity, consumer, id)
  }

  async add(folder: MemoryFolder, record: MemoryRecord, options: AddOptions): Promise<AddOutcome> {
    const [{ addMemory }, { memoryDocument, recordOwnWrite }, { restrictionOf }, index] = await Promise.all([
      fileStore(),
      documents(),
      import('../../memory/visibility.js'),
      this.index.open(options.warn),
    ])
    // Before the folder lock: the model's time is not the time other writers wait for the lock. A
    // model that fails does not stop the write: the memory waits for its vector, as without `embed`.
    const vectors =
      options.embed === true
        ? await index.embedDocuments([memoryDocument(record, folder)]).catch((error: unknown) => {
            if (error instanceof MkError) return undefined
            throw error
          })
        : undefined
    return addMemory(
      this.workspace,
      folder,
      record,
      {
        findDuplicate: async (content) => {
          await this.index.refresh({ identity: options.identity, folders: [folder], knowledge: false, warn: options.warn })
          return index.findSameContent(content, [folder.key], restrictionOf(record, folder))?.id
        },
        // findDuplicate brought the index up to date with the folder under this lock.
        written: (stored) => {
          index.upsert([memoryDocument(stored.record, stored.folder)], vectors)
          recordOwnWrite(index, stored.folder)
        },
      },
      options.author,
    )
  }

  async rewrite(folder: MemoryFolder, records: readonly MemoryRecord[], message: string, options: WriteOptions): Promise<string | undefined> {
    const [{ rewriteMemories }, { memoryDocument }] = await Promise.all([fileStore(), documents()])
    const commit = await rewriteMemories(this.workspace, folder, records, message, options.author)
    if (records.length > 0) (await this.index.open(options.warn)).upsert(records.map((record) => memoryDocument(record, folder)))
    return commit
  }

  async retier(folder: MemoryFolder, moves: readonly { id: string; tier: MemoryTier }[], message: string, options: WriteOptions): Promise<string | undefined> {
    const commit = await (await fileStore()).retierMemories(this.workspace, folder, moves, message, options.author)
    if (moves.length > 0) (await this.index.open(options.warn)).setStatuses(moves.map((move) => ({ id: move.id, status: move.tier })))
    return commit
  }

  async delete(stored: StoredMemory, options: WriteOptions): Promise<string> {
    const [{ deleteMemory }, index] = await Promise.all([fileStore(), this.index.open(options.warn)])
    return deleteMemory(this.workspace, stored, () => index.remove([stored.record.id]), options.author)
  }

  async restore(identity: MemoryIdentity, id: string, options: WriteOptions): Promise<StoredMemory & { commit: string | undefined }> {
    const [{ restoreMemory }, { memoryDocument }, index] = await Promise.all([fileStore(), documents(), this.index.open(options.warn)])
    return restoreMemory(this.workspace, identity, id, (restored) => index.upsert([memoryDocument(restored.record, restored.folder)]), options.author)
  }

  async findDeletion(id: string): Promise<DeletedVersion | undefined> {
    const { findDeletion } = await import('../../memory/history.js')
    return findDeletion(this.workspace.mkHome, id)
  }

  async lint(): Promise<{ problems: KnowledgeProblem[]; read: number }> {
    const { problems, filesRead } = await (await import('./lint.js')).lintSharedMemories(this.workspace)
    return { problems, read: filesRead }
  }

  async placeOf(stored: StoredMemory): Promise<string> {
    return (await fileStore()).displayPath(this.workspace, stored.file)
  }
}
