import { existsSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { MemoryLayer } from '../config/layers.js'
import type { MemoryFolder, MemoryIdentity } from '../memory/locations.js'
import { insideWorkspace, resolvesWithin } from '../fs/path-guard.js'
import type { KnowledgeStatusLookup } from '../stores/index-store.js'
import type { MemoryStore } from '../stores/memories.js'

const staleStatuses: ReadonlySet<string> = new Set(['superseded', 'deprecated'])

/** A ref naming a file rather than a knowledge id: it has a folder or an extension (`src/db.ts`, `README.md`). */
export function looksLikePath(ref: string): boolean {
  return ref.includes('/') || /\.[a-z0-9]{1,8}$/i.test(ref)
}

/**
 * What a ref that names no knowledge item points at in vain: a workspace file that does
 * not exist, or (not a path) a knowledge item. Undefined for a file that exists or lies
 * outside the workspace, which mk does not judge.
 */
function missingTarget(ref: string, workspaceRoot: string): 'file' | 'knowledge item' | undefined {
  if (!looksLikePath(ref)) return 'knowledge item'
  const inside = isAbsolute(ref) ? undefined : insideWorkspace(workspaceRoot, ref)
  if (inside === undefined) return undefined
  // Judged only where it resolves inside too: a link out of the workspace must not tell what exists beyond it.
  const target = join(workspaceRoot, inside)
  return resolvesWithin([{ path: workspaceRoot, name: 'the workspace' }], target) && !existsSync(target) ? 'file' : undefined
}

/**
 * Why a memory can no longer be trusted, or undefined: a ref names a knowledge item that
 * is superseded, deprecated or gone, or a workspace file that no longer exists.
 */
export function staleReason(refs: readonly string[], statusOf: KnowledgeStatusLookup, workspaceRoot: string): string | undefined {
  for (const ref of refs) {
    const status = statusOf(ref)
    if (status !== undefined) {
      if (staleStatuses.has(status)) return `refers to ${ref}, which is ${status}`
      continue
    }
    const missing = missingTarget(ref, workspaceRoot)
    if (missing === 'file') return `refers to ${ref}, which no longer exists in the workspace`
    if (missing === 'knowledge item') return `refers to ${ref}, which is no longer in the knowledge base`
  }
  return undefined
}

/** The refs that point at nothing yet, each with what it would have to be: a knowledge item, or a file in the workspace. */
export function unresolvedRefs(
  refs: readonly string[],
  statusOf: KnowledgeStatusLookup,
  workspaceRoot: string,
): { ref: string; missing: 'file' | 'knowledge item' }[] {
  return refs.flatMap((ref) => {
    const missing = statusOf(ref) === undefined ? missingTarget(ref, workspaceRoot) : undefined
    return missing === undefined ? [] : [{ ref, missing }]
  })
}

export interface StaleMemory {
  memoryId: string
  layer: MemoryLayer
  reason: string
}

/**
 * Memories (of every folder visible here) whose refs name one of `ids`, the knowledge
 * items a sync just superseded, deprecated or deleted.
 */
export async function memoriesReferring(
  workspace: Workspace,
  memories: MemoryStore,
  identity: MemoryIdentity,
  ids: ReadonlySet<string>,
  statusOf: KnowledgeStatusLookup,
): Promise<StaleMemory[]> {
  if (ids.size === 0) return []
  const { visibleFolders } = await import('../memory/locations.js')
  const stale: StaleMemory[] = []
  for (const folder of visibleFolders(workspace, identity)) {
    for (const id of await memories.ids(folder)) {
      const read = await memories.read(folder, id)
      if (read === undefined || !('record' in read) || !read.record.refs.some((ref) => ids.has(ref))) continue
      const reason = staleReason(
        read.record.refs.filter((ref) => ids.has(ref)),
        statusOf,
        workspace.root,
      )
      if (reason !== undefined) stale.push({ memoryId: read.record.id, layer: read.record.layer, reason })
    }
  }
  return stale
}

/**
 * Stale reasons for a few memories (search hits), by id, from their refs; `lookup` (which may
 * refresh the knowledge index) is only called when some memory has refs.
 */
export async function staleReasons(
  workspace: Workspace,
  store: MemoryStore,
  memories: readonly { id: string; folder: MemoryFolder }[],
  lookup: () => Promise<KnowledgeStatusLookup>,
): Promise<Map<string, string>> {
  const byFolder = new Map<MemoryFolder, string[]>()
  for (const { id, folder } of memories) {
    const ids = byFolder.get(folder)
    if (ids === undefined) byFolder.set(folder, [id])
    else ids.push(id)
  }
  const refs = new Map<string, string[]>()
  for (const [folder, ids] of byFolder) for (const [id, list] of await store.refs(folder, ids)) refs.set(id, list)
  const reasons = new Map<string, string>()
  if (refs.size === 0) return reasons
  const statusOf = await lookup()
  for (const [id, list] of refs) {
    const reason = staleReason(list, statusOf, workspace.root)
    if (reason !== undefined) reasons.set(id, reason)
  }
  return reasons
}
