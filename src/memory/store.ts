import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { MkError, isNodeError } from '../errors.js'
import { removeAbandonedTemporaryFiles, writeFileAtomic } from '../fs/atomic-write.js'
import { toPosix } from '../fs/walk.js'
import { formatMemory, MemoryFormatError, parseMemory } from './format.js'
import { commitChange, findDeletion } from './history.js'
import { markPending, pendingChanges, type PendingChange } from './pending.js'
import { isVisibleTo, restrictionOf, unownedPrivateProblem, type MemoryConsumer } from './visibility.js'
import { appendLedger, ledgerFile } from './activations.js'
import type { LedgerEntry } from './counters.js'
import { redactFields } from './redact.js'
import { inBatches } from '../fs/in-batches.js'
import { currentTierTable, readTierTable, tierTableFile, writeTierTable } from './tier-table.js'

/** Files read or written at once by the bulk operations (maintain, rehydrate, consolidate). */
const filesInFlight = 32
import { isMemoryId } from './ids.js'
import { requireWritableFolder, visibleFolders, type MemoryFolder, type MemoryIdentity } from './locations.js'
import { withLock } from '../fs/lock.js'
import type { MemoryRecord, MemoryTier } from './model.js'
import type { GitIdentity } from '../git/identity.js'

export interface StoredMemory {
  record: MemoryRecord
  folder: MemoryFolder
  /** Absolute path of the file. */
  file: string
}

export interface UnreadableMemory {
  /** Path shown to the user: relative to the workspace or to MK_HOME. */
  file: string
  problem: string
  /** What lint reports it as. */
  code: 'invalid_private_memory_owner' | 'unreadable-memory'
}

export function memoryFile(folder: MemoryFolder, id: string): string {
  return join(folder.dir, `${id}.md`)
}

/** How a file is named in messages: never an absolute path under the user's home. */
export function displayPath(workspace: Workspace, file: string): string {
  const inHome = relative(workspace.mkHome, file)
  if (!inHome.startsWith('..')) return `$MK_HOME/${toPosix(inHome)}`
  return toPosix(relative(workspace.root, file))
}

function lockPath(workspace: Workspace, folder: MemoryFolder): string {
  return folder.private ? join(workspace.mkHome, '.locks', 'memory') : join(workspace.stateDir, 'locks', `memory-${folder.key.replaceAll('/', '-')}`)
}

/** Run work under a memory folder's lock, the one every write of that folder takes. */
export function withFolderLock<T>(workspace: Workspace, folder: MemoryFolder, work: () => Promise<T>): Promise<T> {
  requireWritableFolder(workspace, folder)
  return withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, work)
}

/**
 * Names of the memory files in a folder (without reading them). Synchronous: a search lists a folder
 * written in the last moments on every call, and through libuv's pool the thread waited idle for it.
 */
export function listMemoryFiles(folder: MemoryFolder): string[] {
  try {
    const names = readdirSync(folder.dir)
    return names.filter((name) => name.endsWith('.md') && isMemoryId(name.slice(0, -3)))
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return []
    throw error
  }
}

export async function readMemoryFile(workspace: Workspace, folder: MemoryFolder, file: string): Promise<StoredMemory | UnreadableMemory> {
  const shown = displayPath(workspace, file)
  try {
    // Synchronous: a search reads each memory it returns, and a read through libuv's pool is four round trips.
    const written = parseMemory(readFileSync(file, 'utf8'), folder.private ? 'private' : 'shared')
    const record = { ...written, tier: (await currentTierTable(folder)).get(written.id) ?? written.tier }
    const expectedId = file.slice(folder.dir.length + 1, -3)
    if (record.id !== expectedId) return { file: shown, problem: `its id ${record.id} does not match the file name`, code: 'unreadable-memory' }
    const unowned = unownedPrivateProblem(record, folder)
    if (unowned !== undefined) return { file: shown, problem: unowned, code: 'invalid_private_memory_owner' }
    return { record, folder, file }
  } catch (error) {
    if (error instanceof MemoryFormatError) return { file: shown, problem: error.message, code: 'unreadable-memory' }
    if (isNodeError(error)) return { file: shown, problem: `cannot read it (${error.code ?? error.message})`, code: 'unreadable-memory' }
    throw error
  }
}

export function isStored(value: StoredMemory | UnreadableMemory): value is StoredMemory {
  return 'record' in value
}

/** Find a memory by id in the folders visible from here. */
export async function findMemory(workspace: Workspace, identity: MemoryIdentity, id: string): Promise<StoredMemory> {
  if (!isMemoryId(id)) {
    throw new MkError('INVALID_INPUT', `"${id}" is not a memory id: ids look like mem_01J9Z8Q4T5V6W7X8Y9Z0A1B2C3`, { details: { field: 'memoryId' } })
  }
  for (const folder of visibleFolders(workspace, identity)) {
    const file = memoryFile(folder, id)
    if (!existsSync(file)) continue
    const read = await readMemoryFile(workspace, folder, file)
    if (!isStored(read)) throw new MkError('INVALID_INPUT', `${read.file}: ${read.problem}`, { details: { file: read.file, hint: 'fix the file by hand' } })
    return read
  }
  throw new MkError('NOT_FOUND', `no memory ${id} in the layers visible here`, {
    details: { memoryId: id, hint: 'mk memory list shows the memories; agent and session memories need --agent or --session' },
  })
}

/** A memory by id that this consumer may read: another agent's private memory is answered as absent, since its existence is private too. */
export async function findVisibleMemory(workspace: Workspace, identity: MemoryIdentity, consumer: MemoryConsumer, id: string): Promise<StoredMemory> {
  const stored = await findMemory(workspace, identity, id)
  if (!isVisibleTo(restrictionOf(stored.record, stored.folder), consumer)) throw new MkError('NOT_FOUND', `no memory ${id} in the layers visible here`)
  return stored
}

/** Commit a written private memory file to the MK_HOME history. */
function commitAdd(workspace: Workspace, change: PendingChange, verb: 'add' | 'restore', author: GitIdentity | undefined): Promise<string> {
  return commitChange(workspace.mkHome, {
    add: [toPosix(relative(workspace.mkHome, change.file))],
    message: `${verb} ${change.id} (${change.folderKey})`,
    author,
  })
}

/**
 * Record a deletion: the file's last text is archived in MK_HOME (`deleted/<id>.md`) in the same
 * commit that removes a private file, so restore works even for a file that was never committed
 * (placed by hand, or left by a crash). The file itself is removed after the commit.
 */
async function commitDelete(workspace: Workspace, change: PendingChange, text: string, author: GitIdentity | undefined): Promise<string> {
  const archived = `deleted/${change.id}.md`
  const path = toPosix(relative(workspace.mkHome, change.file))
  await writeFileAtomic(join(workspace.mkHome, archived), text)
  const where = change.private ? `path: ${path}\n` : ''
  const commit = await commitChange(workspace.mkHome, {
    add: [archived],
    remove: change.private ? [path] : [],
    message: `delete ${change.id}\n\nfolder: ${change.folderKey}\n${where}archived: ${archived}\n`,
    author,
  })
  await rm(change.file, { force: true })
  return commit
}

/**
 * When this thread last swept a folder for dead writers' temporary files. The sweep lists the
 * whole folder (1 ms of CPU at 1,000 memories, 7 at 10,000, under the lock every writer waits
 * for): a long-lived process (`mk serve`, the MCP server) sweeps a folder at most this often.
 * Such a file is hidden litter no reader sees, so it may wait a few seconds.
 */
const sweptAt = new Map<string, number>()
const sweepEveryMs = 10_000

async function sweepAbandonedWrites(dir: string): Promise<void> {
  const last = sweptAt.get(dir)
  if (last !== undefined && Date.now() - last < sweepEveryMs) return
  await removeAbandonedTemporaryFiles(dir)
  sweptAt.set(dir, Date.now())
}

/**
 * Finish what a crashed mk left between a write and its commit: an added file is committed (or,
 * never written, forgotten), a deletion is committed and its file removed; temporary files of
 * dead writers go (see sweepAbandonedWrites). Runs under the folder lock before every change, so
 * it never races the work it finishes.
 */
async function finishInterrupted(workspace: Workspace, folder: MemoryFolder, author: GitIdentity | undefined): Promise<void> {
  await sweepAbandonedWrites(folder.dir)
  for (const { change, done } of await pendingChanges(workspace.mkHome, folder.key)) {
    if (change.op === 'add' && existsSync(change.file) && change.private) await commitAdd(workspace, change, 'add', author)
    if (change.op === 'delete' && existsSync(change.file)) await commitDelete(workspace, change, await readFile(change.file, 'utf8'), author)
    if (change.op === 'rewrite' && change.private) {
      const message = `${change.message ?? `rewrite (${change.folderKey})`}\n\nfinished by the next write: the process that wrote it stopped before its commit\n`
      await commitChange(workspace.mkHome, { add: committable(workspace, change.files ?? [change.file]), message, author })
    }
    await done()
  }
}

export interface AddHooks {
  /** An existing memory of the folder with the same normalised content, checked while holding the lock. */
  findDuplicate(content: string): Promise<string | undefined>
  /** Runs after the file is written, still under the lock (the index update). */
  written(stored: StoredMemory): void
}

export type AddOutcome = { deduplicated: true; id: string } | { deduplicated: false; stored: StoredMemory; commit: string | undefined }

/** Write a new memory file (atomically) and, for MK_HOME layers, commit it. Same content in the same folder writes nothing. */
export async function addMemory(workspace: Workspace, folder: MemoryFolder, record: MemoryRecord, hooks: AddHooks, author?: GitIdentity): Promise<AddOutcome> {
  requireWritableFolder(workspace, folder)
  return withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, async () => {
    await finishInterrupted(workspace, folder, author)
    const duplicate = await hooks.findDuplicate(record.content)
    if (duplicate !== undefined) return { deduplicated: true, id: duplicate }
    const file = memoryFile(folder, record.id)
    const change: PendingChange = { op: 'add', id: record.id, folderKey: folder.key, private: folder.private, file }
    const done = folder.private ? await markPending(workspace.mkHome, change) : undefined
    await writeFileAtomic(file, formatMemory(record))
    const commit = folder.private ? await commitAdd(workspace, change, 'add', author) : undefined
    await done?.()
    const stored = { record, folder, file }
    hooks.written(stored)
    return { deduplicated: false, stored, commit }
  })
}

/** Paths relative to MK_HOME of a private folder's files that exist, for a commit. */
function committable(workspace: Workspace, paths: readonly string[]): string[] {
  return paths.filter((path) => existsSync(path)).map((path) => toPosix(relative(workspace.mkHome, path)))
}

/**
 * Write files of a folder and, for an MK_HOME folder, commit them as one. A marker recorded first
 * lets the next write of the folder commit them when this process is stopped in between (see
 * finishInterrupted); shared folders' files are left for the person to commit.
 */
async function writeAndCommit(
  workspace: Workspace,
  folder: MemoryFolder,
  paths: readonly string[],
  message: string,
  author: GitIdentity | undefined,
  write: () => Promise<void>,
): Promise<string | undefined> {
  if (!folder.private) {
    await write()
    return undefined
  }
  const id = `rewrite-${Date.now()}-${process.pid}`
  const done = await markPending(workspace.mkHome, {
    op: 'rewrite',
    id,
    folderKey: folder.key,
    private: true,
    file: paths[0] ?? '',
    files: [...paths],
    message,
  })
  await write()
  const commit = await commitChange(workspace.mkHome, { add: committable(workspace, paths), message, author })
  await done()
  return commit
}

/**
 * Rewrite memory files of one folder atomically under the folder lock and, for an MK_HOME folder,
 * record them, the folder's tier table and its activation ledger in one commit. Files of shared
 * layers are left for the person to commit with their change, like every project memory. A
 * memory's tier goes to the tier table, not to its file.
 */
export async function rewriteMemories(
  workspace: Workspace,
  folder: MemoryFolder,
  records: readonly MemoryRecord[],
  message: string,
  author?: GitIdentity,
): Promise<string | undefined> {
  if (records.length === 0) return undefined
  requireWritableFolder(workspace, folder)
  return withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, async () => {
    await finishInterrupted(workspace, folder, author)
    const paths = [...records.map((record) => memoryFile(folder, record.id)), tierTableFile(folder), ledgerFile(folder)]
    return writeAndCommit(workspace, folder, paths, message, author, async () => {
      const table = await readTierTable(folder)
      // A file written before the table named its tier itself; the rewrite drops that line, so the table keeps it.
      const tiered = records.filter((record) => table.has(record.id) || (record.tier !== undefined && record.tier !== 'hot'))
      for (const record of tiered) table.set(record.id, record.tier ?? 'hot')
      if (tiered.length > 0) await writeTierTable(folder, table)
      await inBatches(records, filesInFlight, (record) => writeFileAtomic(memoryFile(folder, record.id), formatMemory(record)))
    })
  })
}

/** Move memories of one folder to other tiers: one write of its tier table, and one commit for an MK_HOME folder. */
export async function retierMemories(
  workspace: Workspace,
  folder: MemoryFolder,
  moves: readonly { id: string; tier: MemoryTier }[],
  message: string,
  author?: GitIdentity,
): Promise<string | undefined> {
  if (moves.length === 0) return undefined
  requireWritableFolder(workspace, folder)
  return withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, async () => {
    await finishInterrupted(workspace, folder, author)
    return writeAndCommit(workspace, folder, [tierTableFile(folder), ledgerFile(folder)], message, author, async () => {
      const table = await readTierTable(folder)
      for (const move of moves) table.set(move.id, move.tier)
      await writeTierTable(folder, table)
    })
  })
}

/** Append to a folder's activation ledger under its lock: many agents record uses at once. */
export async function recordInLedger(workspace: Workspace, folder: MemoryFolder, entries: readonly LedgerEntry[]): Promise<void> {
  requireWritableFolder(workspace, folder)
  // Reasons and run ids are the caller's words: redacted like every field mk writes.
  const { value: safe } = await redactFields(entries)
  await withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, () => appendLedger(folder, safe))
}

/**
 * Delete a memory file. Every deletion is a commit in MK_HOME that archives the file's text and,
 * for a private memory, removes the file from that repository, so restore works for both.
 */
export async function deleteMemory(workspace: Workspace, stored: StoredMemory, removed: () => void, author?: GitIdentity): Promise<string> {
  const { folder, file, record } = stored
  requireWritableFolder(workspace, folder)
  return withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, async () => {
    await finishInterrupted(workspace, folder, author)
    const text = await readFile(file, 'utf8')
    const change: PendingChange = { op: 'delete', id: record.id, folderKey: folder.key, private: folder.private, file }
    const done = await markPending(workspace.mkHome, change)
    const commit = await commitDelete(workspace, change, text, author)
    await done()
    removed()
    return commit
  })
}

/** Bring back the last deleted version of a memory, into the folder it was deleted from. */
export async function restoreMemory(
  workspace: Workspace,
  identity: MemoryIdentity,
  id: string,
  restored: (stored: StoredMemory) => void,
  author?: GitIdentity,
): Promise<StoredMemory & { commit: string | undefined }> {
  if (!isMemoryId(id)) throw new MkError('INVALID_INPUT', `"${id}" is not a memory id`, { details: { field: 'memoryId' } })
  const deletion = await findDeletion(workspace.mkHome, id)
  if (deletion === undefined) {
    throw new MkError('NOT_FOUND', `no deletion of ${id} is recorded in $MK_HOME`, {
      details: { memoryId: id, hint: 'only memories deleted with mk memory delete can be restored' },
    })
  }
  const key = /^folder: (.+)$/m.exec(deletion.message)?.[1]
  const folder = visibleFolders(workspace, identity).find((candidate) => candidate.key === key)
  if (folder === undefined) {
    throw new MkError('INVALID_INPUT', `${id} was deleted from ${key ?? 'an unknown folder'}, which is not visible here`, {
      details: { hint: 'pass the --agent or --session id it belonged to, or run from the workspace it came from' },
    })
  }
  requireWritableFolder(workspace, folder)
  const record = parseMemory(deletion.text)
  const file = memoryFile(folder, id)
  return withLock(lockPath(workspace, folder), { what: 'this memory folder', onBusy: 'wait' }, async () => {
    await finishInterrupted(workspace, folder, author)
    if (existsSync(file)) throw new MkError('CONFLICT', `memory ${id} exists already; nothing to restore`, { details: { memoryId: id } })
    const change: PendingChange = { op: 'add', id, folderKey: folder.key, private: folder.private, file }
    const done = folder.private ? await markPending(workspace.mkHome, change) : undefined
    await writeFileAtomic(file, deletion.text)
    const commit = folder.private ? await commitAdd(workspace, change, 'restore', author) : undefined
    await done?.()
    const stored = { record, folder, file }
    restored(stored)
    return { ...stored, commit }
  })
}
