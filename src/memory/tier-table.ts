import { statSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic-write.js'
import { readTextIfExists } from '../fs/read-if-exists.js'
import { isMemoryTier } from './decay.js'
import type { MemoryFolder } from './locations.js'
import { isMemoryId } from './ids.js'
import { memoryTiers, type MemoryTier } from './model.js'
import { oneLine } from '../text.js'

/**
 * The tier of each memory of a folder that decay or rehydration moved, one `<id> <tier>` line per
 * memory, sorted by id, in `.tiers` beside the memories. Decay moves tens of thousands of memories
 * at once: one file rewritten is one readable diff and one blob in a commit, where a tier line in
 * each memory file was 92,500 files rewritten and committed. A memory the table does not list
 * takes the tier its own file names (files written before the table), else hot.
 */
export type TierTable = Map<string, MemoryTier>

const header = '# Tiers of memories moved by mk memory maintain or rehydrate: "<id> <tier>". A memory not listed is hot.\n'

export function tierTableFile(folder: Pick<MemoryFolder, 'dir'>): string {
  return join(folder.dir, '.tiers')
}

type TierLine = { id: string; tier: MemoryTier } | 'blank' | { problem: string }

function parseTierLine(line: string): TierLine {
  const trimmed = line.trim()
  if (trimmed === '' || trimmed.startsWith('#')) return 'blank'
  const [id, tier, ...extra] = trimmed.split(/\s+/)
  if (id === undefined || !isMemoryId(id) || extra.length > 0) return { problem: `"${oneLine(trimmed, 60)}" is not "<memory id> <tier>"` }
  if (!isMemoryTier(tier)) return { problem: `${id}: "${tier ?? ''}" is not one of ${memoryTiers.join(', ')}` }
  return { id, tier }
}

/** Lines that do not parse (a merge gone wrong) are skipped: the memory keeps the tier its file names. */
export function parseTierTable(text: string): TierTable {
  const table: TierTable = new Map()
  for (const line of text.split('\n')) {
    const parsed = parseTierLine(line)
    if (typeof parsed === 'object' && 'id' in parsed) table.set(parsed.id, parsed.tier)
  }
  return table
}

/** The lines parseTierTable skips, for lint: a conflict left in the table silently puts memories back to their file's tier. */
export function tierTableProblems(text: string): { line: number; message: string }[] {
  return text.split('\n').flatMap((line, position) => {
    const parsed = parseTierLine(line)
    return typeof parsed === 'object' && 'problem' in parsed ? [{ line: position + 1, message: parsed.problem }] : []
  })
}

export function formatTierTable(table: ReadonlyMap<string, MemoryTier>): string {
  const ids = [...table.keys()].sort()
  return header + ids.map((id) => `${id} ${table.get(id) ?? 'hot'}\n`).join('')
}

export async function readTierTable(folder: Pick<MemoryFolder, 'dir'>): Promise<TierTable> {
  const text = await readTextIfExists(tierTableFile(folder))
  return text === undefined ? new Map() : parseTierTable(text)
}

/** Write the table atomically. Call under the folder lock. */
export async function writeTierTable(folder: Pick<MemoryFolder, 'dir'>, table: ReadonlyMap<string, MemoryTier>): Promise<void> {
  await writeFileAtomic(tierTableFile(folder), formatTierTable(table))
}

const cached = new Map<string, { signature: string; table: TierTable }>()

/**
 * The folder's table for reading one memory after another: read again only when the file's
 * inode, size or time changed (every write replaces the file, so it gets a new inode).
 */
export async function currentTierTable(folder: Pick<MemoryFolder, 'dir'>): Promise<TierTable> {
  const file = tierTableFile(folder)
  // Synchronous: a search reads the table's stat for each memory it returns; through libuv's pool, and with an
  // error object for each missing table, that was a tenth of a warm search.
  const info = statSync(file, { throwIfNoEntry: false })
  const signature = info === undefined ? 'missing' : `${info.ino}:${info.size}:${info.mtimeMs}`
  const hit = cached.get(file)
  if (hit?.signature === signature) return hit.table
  const table = info === undefined ? new Map<string, MemoryTier>() : await readTierTable(folder)
  cached.set(file, { signature, table })
  return table
}
