import { join } from 'node:path'
import { appendJsonLines, readJsonLines } from '../fs/json-lines.js'
import { emptyCounters, type LedgerEntry, type MemoryCounters } from './counters.js'
import type { MemoryFolder } from './locations.js'

/**
 * Counters live in an append-only ledger beside the memories (`.activations.jsonl`), not in the
 * memory files: using a memory must not rewrite it or add a commit, and two branches that both
 * appended merge by keeping both sides (`.gitattributes`: `.activations.jsonl merge=union`).
 */
export function ledgerFile(folder: Pick<MemoryFolder, 'dir'>): string {
  return join(folder.dir, '.activations.jsonl')
}

/** Append entries to the folder's ledger. Call under the folder lock. */
export async function appendLedger(folder: Pick<MemoryFolder, 'dir'>, entries: readonly LedgerEntry[]): Promise<void> {
  await appendJsonLines(ledgerFile(folder), entries)
}

function isEntry(value: unknown): value is LedgerEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  return typeof entry.id === 'string' && typeof entry.at === 'string' && (entry.event === 'activate' || entry.event === 'rehydrate')
}

/** The counters of every memory the ledger names. A line that does not parse (a merge gone wrong) is skipped, never fatal. */
export async function readCounters(folder: Pick<MemoryFolder, 'dir'>): Promise<Map<string, MemoryCounters>> {
  return countLedger(await readJsonLines(ledgerFile(folder)))
}

/** The counters of every memory these ledger entries name, in the order they were appended, whichever store kept them. */
export function countLedger(entries: Iterable<unknown>): Map<string, MemoryCounters> {
  const counters = new Map<string, MemoryCounters>()
  for (const entry of entries) {
    if (!isEntry(entry)) continue
    const current = counters.get(entry.id) ?? emptyCounters()
    if (entry.event === 'rehydrate') {
      if (current.lastRehydrated === undefined || entry.at > current.lastRehydrated) current.lastRehydrated = entry.at
    } else {
      current.activations++
      if (entry.outcome === 'positive') current.feedbackPositive++
      if (entry.outcome === 'negative') current.feedbackNegative++
      if (current.lastActivated === undefined || entry.at > current.lastActivated) current.lastActivated = entry.at
      if (entry.outcome !== 'negative' && (current.lastUseful === undefined || entry.at > current.lastUseful)) current.lastUseful = entry.at
    }
    counters.set(entry.id, current)
  }
  return counters
}
