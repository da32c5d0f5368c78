import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { knowledgeLayers } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { errorCodes, isNodeError } from '../errors.js'
import { writeFileAtomic } from '../fs/atomic-write.js'

const errorSchema = z.object({ errorCode: z.enum(errorCodes), message: z.string(), retryable: z.boolean(), hint: z.string().optional() })

/** What the last successful sync saw of one file: enough to tell later what changed. */
const fileStateSchema = z.object({
  /** git blob id: from the tree for git sources, computed from the content for folders. */
  hash: z.string(),
  id: z.string().optional(),
  type: z.string().optional(),
  status: z.string().optional(),
  /** Why the file could not be parsed; it stays failed until its content changes. */
  error: z.string().optional(),
})

const sourceStateSchema = z.object({
  kind: z.enum(['path', 'git']),
  layer: z.enum(knowledgeLayers),
  url: z.string().optional(),
  ref: z.string().optional(),
  /** The sub-folder of the repository the files were read from. */
  dir: z.string().optional(),
  /** Some files were left for a later sync (a type filter): the file list is not the whole commit. */
  partial: z.boolean().optional(),
  /** The commit the files were synced from (git sources). */
  commit: z.string().optional(),
  lastSyncAt: z.string().optional(),
  lastAttemptAt: z.string().optional(),
  /** The last attempt's failure; cleared by the next success. */
  error: errorSchema.optional(),
  files: z.record(z.string(), fileStateSchema),
})

const syncStateSchema = z.object({
  version: z.literal(1),
  lastSyncAt: z.string().optional(),
  stats: z.object({ totalSyncs: z.number(), totalItemsSynced: z.number(), totalDurationMs: z.number() }),
  sources: z.record(z.string(), sourceStateSchema),
})

export type FileState = z.infer<typeof fileStateSchema>
export type SourceState = z.infer<typeof sourceStateSchema>
export type SyncState = z.infer<typeof syncStateSchema>
export type SyncErrorState = z.infer<typeof errorSchema>

function syncStatePath(workspace: Workspace): string {
  return join(workspace.stateDir, 'sync-state.json')
}

function emptySyncState(): SyncState {
  return { version: 1, stats: { totalSyncs: 0, totalItemsSynced: 0, totalDurationMs: 0 }, sources: {} }
}

/**
 * The state of the last sync. It is derived data: a missing file means "never synced";
 * an unreadable one is reported through `warn` and treated the same, so the next sync
 * re-processes everything instead of failing.
 */
export async function readSyncState(workspace: Workspace, warn: (message: string) => void): Promise<SyncState> {
  const path = syncStatePath(workspace)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return emptySyncState()
    throw error
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    warn(`${path} is not valid JSON; treating every source as never synced`)
    return emptySyncState()
  }
  const parsed = syncStateSchema.safeParse(raw)
  if (!parsed.success) {
    warn(`${path} has an unknown shape; treating every source as never synced`)
    return emptySyncState()
  }
  return parsed.data
}

/** Atomic: a crash leaves the previous state or the new one, never half of either. */
export async function writeSyncState(workspace: Workspace, state: SyncState): Promise<void> {
  await writeFileAtomic(syncStatePath(workspace), `${JSON.stringify(state, null, 2)}\n`)
}
