import { randomBytes } from 'node:crypto'
import type { PoolClient } from 'pg'
import type { GitIdentity } from '../../git/identity.js'

/** One memory's part of a change: which memory, in which folder, with its text after the change (before it, for a deletion). */
export interface HistoryEntry {
  op: 'add' | 'rewrite' | 'retier' | 'delete' | 'restore' | 'outcome'
  folder: string | undefined
  memoryId: string | undefined
  text: string | undefined
}

/** A commit id as git's look: 40 hex digits, unique per change, returned by every write. */
const newCommitId = (): string => randomBytes(20).toString('hex')

/** Append one change to the append-only history, in the write's transaction: its rows and its commit id stand or fall with it. */
export async function recordChange(
  client: PoolClient,
  scope: string,
  message: string,
  author: GitIdentity | undefined,
  entries: readonly HistoryEntry[],
): Promise<string> {
  const commit = newCommitId()
  const by = author === undefined ? null : `${author.name} <${author.email}>`
  // One statement per batch of entries (a bulk rewrite wrote one per memory), in their order.
  for (let start = 0; start < entries.length; start += 1000) {
    const batch = entries.slice(start, start + 1000)
    await client.query(
      `INSERT INTO mk_history (scope, commit_id, author, message, op, folder, memory_id, text)
       SELECT $1, $2, $3, $4, u.op, u.folder, u.memory_id, u.text FROM unnest($5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS u(op, folder, memory_id, text, ord)
       ORDER BY u.ord`,
      [
        scope,
        commit,
        by,
        message,
        batch.map((entry) => entry.op),
        batch.map((entry) => entry.folder ?? null),
        batch.map((entry) => entry.memoryId ?? null),
        batch.map((entry) => entry.text ?? null),
      ],
    )
  }
  return commit
}
