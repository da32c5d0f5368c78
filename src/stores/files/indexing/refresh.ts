import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Workspace } from '../../../config/workspace.js'
import type { KnowledgeProblem } from '../../../knowledge/model.js'
import type { MemoryFolder } from '../../../memory/locations.js'
import { isStored, listMemoryFiles, readMemoryFile, type UnreadableMemory } from '../../../memory/store.js'
import { readTierTable, tierTableFile } from '../../../memory/tier-table.js'
import { wallClockNs } from '../../../fs/stat-signature.js'
import { statFiles, type FileSignature } from '../../../search/file-signature.js'
import type { SearchIndex } from '../../../search/search-index.js'
import type { IndexDocument } from '../../../search/types.js'

import { memoryDocument } from '../../../memory/memory-document.js'
import { knowledgeDocument, knowledgeDocuments, knowledgeSignature } from '../../../directives/knowledge-documents.js'

/** A memory as the index holds it: the files store and a database store map memories alike. */
export { memoryDocument }

/** What the index holds of the knowledge, as every store indexes it. */
export { knowledgeDocument, knowledgeSignature }

export interface RefreshOptions {
  warn(message: string): void
  /**
   * Check every file instead of trusting the folder's and the knowledge's signatures (`mk index
   * update`, `mk index rebuild`): a memory file is read again when its stat data changed, the
   * knowledge is loaded again.
   */
  force?: boolean
}

export interface RefreshReport {
  added: number
  removed: number
  knowledgeReloaded: boolean
  /** Memory folders whose names were read from disk, not taken as the index already holds them. */
  foldersListed: number
}

/**
 * File systems stamp times with a coarse clock: a file created in the same tick as the last
 * change leaves the folder's time as it was. A folder changed that recently is listed again next time.
 */
const settledAfterMs = 2000

/** A path's inode and modification time, and whether that time is too recent to be trusted by itself. */
interface PathStat {
  stamp: string
  recent: boolean
}

/**
 * Synchronous: every search looks at each folder, and a stat through libuv's pool cost ten times
 * the CPU and left a server thread idle, unable to take the next call, until it came back.
 */
function statPath(path: string): PathStat {
  const info = statSync(path, { throwIfNoEntry: false })
  if (info === undefined) return { stamp: 'missing', recent: false }
  return { stamp: `${info.ino}:${info.mtimeMs}`, recent: Date.now() - info.mtimeMs < settledAfterMs }
}

/** What a path's refresh state records: its stamp, or 'unsettled' while that is too recent to trust. */
function signatureOf(stat: PathStat): string {
  return stat.recent ? 'unsettled' : stat.stamp
}

function warnUnreadable(unreadable: readonly UnreadableMemory[], warn: (message: string) => void): void {
  for (const entry of unreadable) warn(`skipped memory file ${entry.file}: ${entry.problem}`)
}

function idOfFile(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1, -3)
}

/** Files that did not parse are read again on every refresh (an edit in place does not touch the folder), and warned about while broken. */
async function retryUnreadable(
  index: SearchIndex,
  workspace: Workspace,
  folder: MemoryFolder,
  unreadableKey: string,
  options: RefreshOptions,
): Promise<RefreshReport> {
  const previous = JSON.parse(index.state(unreadableKey) ?? '[]') as UnreadableMemory[]
  if (previous.length === 0) return { added: 0, removed: 0, knowledgeReloaded: false, foldersListed: 0 }
  const documents: IndexDocument[] = []
  const stillBroken: UnreadableMemory[] = []
  for (const entry of previous) {
    const file = join(folder.dir, `${idOfFile(entry.file)}.md`)
    if (!existsSync(file)) continue
    const read = await readMemoryFile(workspace, folder, file)
    if (isStored(read)) documents.push(memoryDocument(read.record, folder))
    else stillBroken.push(read)
  }
  index.upsert(documents)
  index.setState(unreadableKey, stillBroken.length === 0 ? undefined : JSON.stringify(stillBroken))
  warnUnreadable(stillBroken, options.warn)
  return { added: documents.length, removed: 0, knowledgeReloaded: false, foldersListed: 0 }
}

/** What a listing found changed: the files to read and the ids no longer on disk; when the folder was last compared with all the index holds of it. */
interface ListingChange {
  toRead: string[]
  stats: Map<string, FileSignature | undefined>
  gone: string[]
  comparedAt: number
}

/** A folder's names as an index object (a connection) last listed them, when, and when it last compared the folder with all the index holds of it. */
interface Listing {
  names: ReadonlySet<string>
  listedAt: number
  comparedAt: number
}

/**
 * A folder written in the last moments is listed on every search (settledAfterMs), which under a
 * stream of writes is every search: against the connection's last listing only the names that came
 * or went are looked up in the index, not every id of the folder (22 ms a search at 10,000
 * memories). The whole comparison still runs when the folder has settled and at least once a
 * second, for what only the index saw: a memory another process added and a person then deleted by
 * hand between two listings.
 */
const lastListings = new WeakMap<SearchIndex, Map<string, Listing>>()
const compareWholeFolderEveryMs = 1000

/** More new names than this (a pull, a bulk import) are compared with the whole folder's ids at once. */
const mostNamesLookedUp = 64

/** New files not in the index yet, and what the index holds of files that went, since the last listing; undefined when the whole folder must be compared. */
async function changeSinceLastListing(
  index: SearchIndex,
  folder: MemoryFolder,
  names: readonly string[],
  onDisk: ReadonlySet<string>,
  sinceNs: bigint,
): Promise<ListingChange | undefined> {
  const listing = lastListings.get(index)?.get(folder.key)
  if (listing === undefined || Date.now() - listing.comparedAt >= compareWholeFolderEveryMs) return undefined
  const previous = listing.names
  const added = names.filter((name) => !previous.has(name))
  if (added.length > mostNamesLookedUp) return undefined
  const indexed = new Set(index.getMany(added.map(idOfFile)).map((doc) => doc.id))
  const toRead = added.filter((name) => !indexed.has(idOfFile(name)))
  const gone = [...previous].filter((name) => !onDisk.has(idOfFile(name))).map(idOfFile)
  return { toRead, stats: await statFiles(folder.dir, toRead, sinceNs), gone, comparedAt: listing.comparedAt }
}

/** The files to read: new ones, and with `force` every file whose stat data differs from when it was last read (or was never recorded). */
async function changeAgainstIndex(
  index: SearchIndex,
  folder: MemoryFolder,
  names: readonly string[],
  onDisk: ReadonlySet<string>,
  force: boolean,
  sinceNs: bigint,
): Promise<ListingChange> {
  const comparedAt = Date.now()
  const indexed = index.idsOfSource('memory', folder.key)
  const gone = [...indexed].filter((id) => !onDisk.has(id))
  if (!force) {
    const toRead = names.filter((name) => !indexed.has(idOfFile(name)))
    return { toRead, stats: await statFiles(folder.dir, toRead, sinceNs), gone, comparedAt }
  }
  const stats = await statFiles(folder.dir, names, sinceNs)
  const recorded = index.fileSignatures(folder.key)
  const toRead = names.filter((name) => {
    const current = stats.get(name)
    return !indexed.has(idOfFile(name)) || current === undefined || recorded.get(name) !== current
  })
  return { toRead, stats, gone, comparedAt }
}

/** Unreadable files are left out, so that the next listing reads them again, as every listing of the whole folder does. */
function rememberListing(
  index: SearchIndex,
  folder: MemoryFolder,
  names: readonly string[],
  unreadable: readonly UnreadableMemory[],
  times: { listedAt: number; comparedAt: number },
): void {
  const broken = new Set(unreadable.map((entry) => `${idOfFile(entry.file)}.md`))
  const listings = lastListings.get(index) ?? new Map<string, Listing>()
  listings.set(folder.key, { names: new Set(names.filter((name) => !broken.has(name))), ...times })
  lastListings.set(index, listings)
}

/**
 * Bring one memory folder's documents up to date: its files, then its tier table. Adding or
 * deleting a file changes the folder's modification time, so an unchanged folder costs two
 * stats; with `force` each file costs a stat, and only files whose stat changed are read.
 */
export async function refreshMemoryFolder(index: SearchIndex, workspace: Workspace, folder: MemoryFolder, options: RefreshOptions): Promise<RefreshReport> {
  const report = await refreshMemoryFiles(index, workspace, folder, options)
  await followTierTable(index, workspace, folder)
  return report
}

/**
 * A tier table changed by another hand (a pull, a revert, another process's maintain): the tiers
 * in the index follow it without reading the memories, but for those it no longer lists, whose
 * own file names their tier.
 */
async function followTierTable(index: SearchIndex, workspace: Workspace, folder: MemoryFolder): Promise<void> {
  const stateKey = `tiers:${folder.key}`
  const signature = signatureOf(statPath(tierTableFile(folder)))
  if (signature !== 'unsettled' && index.state(stateKey) === signature) return
  const table = await readTierTable(folder)
  const updates: { id: string; status: string }[] = []
  for (const [id, status] of index.statusesOfSource('memory', folder.key)) {
    if (status === 'alias') continue
    const listed = table.get(id)
    if (listed !== undefined) {
      if (listed !== status) updates.push({ id, status: listed })
    } else if (status !== 'hot') {
      // Even with `force` the file may not have been read now: only files whose stat data changed are.
      const read = await readMemoryFile(workspace, folder, join(folder.dir, `${id}.md`))
      const tier = isStored(read) ? (read.record.tier ?? 'hot') : status
      if (tier !== status) updates.push({ id, status: tier })
    }
  }
  index.setStatuses(updates)
  index.setState(stateKey, signature)
}

async function refreshMemoryFiles(index: SearchIndex, workspace: Workspace, folder: MemoryFolder, options: RefreshOptions): Promise<RefreshReport> {
  const stateKey = `folder:${folder.key}`
  const unreadableKey = `unreadable:${folder.key}`
  const force = options.force === true
  // Taken before listing: a file added while we list changes the folder again and is picked up next time.
  const folderStat = statPath(folder.dir)
  const signature = signatureOf(folderStat)
  const unchanged = folderStat.recent ? lastChangedByMk(index, folder, folderStat.stamp) : index.state(stateKey) === signature
  if (!force && unchanged) return retryUnreadable(index, workspace, folder, unreadableKey, options)
  const listedAt = Date.now()
  const sinceNs = wallClockNs()
  const names = listMemoryFiles(folder)
  const onDisk = new Set(names.map(idOfFile))
  const sinceListing = force || signature !== 'unsettled' ? undefined : await changeSinceLastListing(index, folder, names, onDisk, sinceNs)
  const change = sinceListing ?? (await changeAgainstIndex(index, folder, names, onDisk, force, sinceNs))
  const documents: IndexDocument[] = []
  const unreadable: UnreadableMemory[] = []
  const signatures = new Map<string, FileSignature | undefined>()
  for (const name of change.toRead) {
    const read = await readMemoryFile(workspace, folder, join(folder.dir, name))
    if (isStored(read)) documents.push(memoryDocument(read.record, folder))
    else unreadable.push(read)
    // A racily clean file, an unreadable one or one that vanished is read again next time.
    signatures.set(name, isStored(read) ? change.stats.get(name) : undefined)
  }
  // A file that no longer parses leaves the index until it is fixed.
  const gone = [...change.gone, ...unreadable.map((entry) => idOfFile(entry.file))]
  for (const id of change.gone) signatures.set(`${id}.md`, undefined)
  index.upsert(documents)
  const removed = index.remove(gone)
  index.recordFileSignatures(folder.key, signatures)
  index.setState(stateKey, signature)
  // Unreadable files never enter the index, so every listing reads them again: this list is complete.
  index.setState(unreadableKey, unreadable.length === 0 ? undefined : JSON.stringify(unreadable))
  warnUnreadable(unreadable, options.warn)
  rememberListing(index, folder, names, unreadable, { listedAt, comparedAt: change.comparedAt })
  return { added: documents.length, removed, knowledgeReloaded: false, foldersListed: 1 }
}

/**
 * A folder's last change was mk's own write: every memory write through mk holds the folder lock,
 * brings the index up to date with the folder first, then puts its file in the index itself, so a
 * folder whose stamp is the one the last writer recorded holds nothing the index lacks. Under a
 * stream of writes the folder has always "just changed", and this spares every search a listing (a
 * fifth of a server thread's time at 10,000 memories). A file placed by another hand in the same
 * clock tick as mk's write leaves the stamp as it was: a connection still lists a folder at least
 * once a second while it keeps changing, and the whole listing runs once it has settled.
 */
function lastChangedByMk(index: SearchIndex, folder: MemoryFolder, stamp: string): boolean {
  const listing = lastListings.get(index)?.get(folder.key)
  if (listing === undefined || Date.now() - listing.listedAt >= listAtLeastEveryMs) return false
  return index.state(writtenKey(folder)) === stamp
}

const listAtLeastEveryMs = 1000
const writtenKey = (folder: MemoryFolder): string => `written:${folder.key}`

/**
 * After mk wrote a memory file under the folder lock and put it in the index, having brought the
 * index up to date with the folder under the same lock: the folder's stamp now, for lastChangedByMk.
 */
export function recordOwnWrite(index: SearchIndex, folder: MemoryFolder): void {
  index.setState(writtenKey(folder), statPath(folder.dir).stamp)
}

export interface KnowledgeRefresh extends Omit<RefreshReport, 'foldersListed'> {
  /** Error-level problems of the knowledge files (those files are not indexed). */
  problems: KnowledgeProblem[]
}

function storedProblems(json: string | undefined): KnowledgeProblem[] {
  const stored: unknown = JSON.parse(json ?? '[]')
  return Array.isArray(stored) ? stored.filter((entry): entry is KnowledgeProblem => typeof entry === 'object' && entry !== null && 'file' in entry) : []
}

/** Re-read the knowledge sources when any of their files changed since the last refresh. */
export async function refreshKnowledge(index: SearchIndex, workspace: Workspace, options: RefreshOptions): Promise<KnowledgeRefresh> {
  const signature = await knowledgeSignature(workspace)
  if (options.force !== true && index.state('knowledge') === signature) {
    return { added: 0, removed: 0, knowledgeReloaded: false, problems: storedProblems(index.state('knowledge:problems')) }
  }
  const { documents, problems } = await knowledgeDocuments(workspace)
  const current = new Set(documents.map((doc) => doc.id))
  const stale = [...index.list({ kind: 'knowledge', includeExpired: true }), ...index.list({ kind: 'directive', includeExpired: true })]
    .map((doc) => doc.id)
    .filter((id) => !current.has(id))
  index.upsert(documents)
  const removed = index.remove(stale)
  index.setState('knowledge', signature)
  index.setState('knowledge:problems', JSON.stringify(problems))
  return { added: documents.length, removed, knowledgeReloaded: true, problems }
}
