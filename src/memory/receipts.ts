import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { appendJsonLines, readJsonLines } from '../fs/json-lines.js'
import { withLock } from '../fs/lock.js'

/** What an agent was told: the ids a recall returned, with their scores, for a query known by its hash. */
export interface RecallReceipt {
  at: string
  agent_id: string | undefined
  query_sha256: string
  ids: string[]
  scores: number[]
}

/**
 * Receipts live in the project memory folder, append-only (`.receipts.jsonl`, merge=union), so a
 * team can answer later "what was the agent told when it made this change?" from git. The query
 * is kept as a hash: it may hold what the memories do not.
 */
export function receiptsFile(workspace: Workspace): string {
  return join(workspace.root, workspace.config.memory.dir, '.receipts.jsonl')
}

export function receiptFor(query: string, agentId: string | undefined, ranked: readonly { id: string; score: number }[], at = new Date()): RecallReceipt {
  return {
    at: at.toISOString(),
    agent_id: agentId,
    query_sha256: createHash('sha256').update(query).digest('hex'),
    ids: ranked.map((entry) => entry.id),
    scores: ranked.map((entry) => entry.score),
  }
}

export async function appendReceipt(workspace: Workspace, receipt: RecallReceipt): Promise<void> {
  const file = receiptsFile(workspace)
  await mkdir(join(workspace.root, workspace.config.memory.dir), { recursive: true })
  await withLock(join(workspace.stateDir, 'locks', 'receipts'), { what: 'the recall receipts', onBusy: 'wait' }, () => appendJsonLines(file, [receipt]))
}

/** Receipts at or after `since` (ISO), oldest first; lines that do not parse are skipped. */
export async function readReceipts(workspace: Workspace, since: string | undefined): Promise<RecallReceipt[]> {
  return (await readJsonLines(receiptsFile(workspace))).filter((value): value is RecallReceipt => {
    const receipt = value as Partial<RecallReceipt> | null
    return typeof receipt?.at === 'string' && Array.isArray(receipt.ids) && (since === undefined || receipt.at >= since)
  })
}
