import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { link, mkdir, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isNodeError, MkError } from '../errors.js'
import { readBytesIfExists } from '../fs/read-if-exists.js'
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
 * is kept as a keyed hash (HMAC-SHA256 with the workspace's salt): it may hold what the memories
 * do not, and whoever reads the receipts cannot confirm a guessed query.
 */
export function receiptsFile(workspace: Workspace): string {
  return join(workspace.root, workspace.config.memory.dir, '.receipts.jsonl')
}

const saltBytes = 32

/**
 * The salt of this workspace's query hashes (one per team server tenant), made on first use in
 * the state folder, which is never committed. Made under a temporary name and linked into place,
 * so two first recalls at once agree on one salt.
 */
export async function receiptSalt(workspace: Workspace): Promise<Buffer> {
  const file = join(workspace.stateDir, 'receipts-salt')
  let salt = readBytesIfExists(file)
  if (salt === undefined) {
    await mkdir(workspace.stateDir, { recursive: true })
    const temporary = `${file}.${randomUUID()}`
    await writeFile(temporary, randomBytes(saltBytes), { mode: 0o600 })
    try {
      await link(temporary, file)
    } catch (error) {
      if (!isNodeError(error) || error.code !== 'EEXIST') throw error
    } finally {
      await unlink(temporary)
    }
    salt = readBytesIfExists(file)
  }
  if (salt?.length !== saltBytes) {
    throw new MkError('INVALID_INPUT', `${file} is not a ${saltBytes}-byte salt`, {
      details: { file, hint: 'delete it: mk makes a new one (older receipts then keep hashes nobody can recompute)' },
    })
  }
  return salt
}

export function receiptFor(
  query: string,
  agentId: string | undefined,
  ranked: readonly { id: string; score: number }[],
  salt: Buffer,
  at = new Date(),
): RecallReceipt {
  return {
    at: at.toISOString(),
    agent_id: agentId,
    query_sha256: createHmac('sha256', salt).update(query).digest('hex'),
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
