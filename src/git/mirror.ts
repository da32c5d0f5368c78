import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { HttpClient } from 'isomorphic-git'

/** What a local copy of a remote looks like on disk. */
export type CloneState = { state: 'missing' } | { state: 'corrupt'; reason: string } | { state: 'ok'; head: string; url: string | undefined }

export interface TransferOptions {
  http: HttpClient
  url: string
  headers: Record<string, string>
  onProgress?: (event: { phase: string; loaded: number; total: number | undefined }) => void
}

async function git(): Promise<typeof import('isomorphic-git').default> {
  return (await import('isomorphic-git')).default
}

/** Whether the clone is usable: HEAD resolves to a commit whose whole tree can be read. */
export async function inspectClone(dir: string): Promise<CloneState> {
  if (!existsSync(dir)) return { state: 'missing' }
  if (!existsSync(join(dir, '.git'))) return { state: 'corrupt', reason: 'not a git repository' }
  const g = await git()
  try {
    const head = await g.resolveRef({ fs, dir, ref: 'HEAD' })
    const { commit } = await g.readCommit({ fs, dir, oid: head })
    await readTreeDeep(g, dir, commit.tree, '', new Map())
    const url = await g.getConfig({ fs, dir, path: 'remote.origin.url' })
    return { state: 'ok', head, url: typeof url === 'string' ? url : undefined }
  } catch (error) {
    return { state: 'corrupt', reason: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Clone a ref shallowly into a temp folder beside `dir`, then swap it in,
 * so a clone that fails half-way never replaces a good copy.
 */
export async function cloneFresh(dir: string, fullRef: string, options: TransferOptions): Promise<string> {
  const g = await git()
  const temp = join(dirname(dir), `.${basename(dir)}.clone-${process.pid}-${Date.now()}`)
  try {
    await g.init({ fs, dir: temp, defaultBranch: 'main' })
    await g.addRemote({ fs, dir: temp, remote: 'origin', url: options.url })
    const commit = await fetchRef(temp, fullRef, options, 1)
    // Checked out by commit (detached), the same way updates are, so branches and tags behave alike.
    await g.checkout({ fs, dir: temp, ref: commit, force: true })
    const old = `${temp}.old`
    if (existsSync(dir)) await rename(dir, old)
    await rename(temp, dir)
    await rm(old, { recursive: true, force: true })
    return commit
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
}

/** Fetch the new commits of one ref (branch or tag) into the clone, working tree untouched; returns the commit fetched. */
export async function fetchRef(dir: string, fullRef: string, options: TransferOptions, depth?: number): Promise<string> {
  const g = await git()
  const result = await g.fetch({
    fs,
    http: options.http,
    dir,
    url: options.url,
    remoteRef: fullRef,
    ref: shortRef(fullRef),
    singleBranch: true,
    tags: false,
    ...(depth === undefined ? {} : { depth }),
    headers: options.headers,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  })
  if (result.fetchHead === null) throw new Error(`the remote has no ${fullRef}`)
  const { oid } = await g.readCommit({ fs, dir, oid: result.fetchHead }).catch(async () => {
    // An annotated tag: peel it to its commit.
    const tag = await g.readTag({ fs, dir, oid: result.fetchHead as string })
    return { oid: tag.tag.object }
  })
  return oid
}

/** True when `descendant` is built on `ancestor`: moving from one to the other is a fast-forward. */
export async function isFastForward(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true
  const g = await git()
  return g.isDescendent({ fs, dir, oid: descendant, ancestor })
}

/**
 * Point the working tree at a commit (detached HEAD). Without `force`, local edits to
 * files the update touches stop it with a conflict instead of being overwritten.
 */
export async function checkoutCommit(dir: string, commit: string, force: boolean): Promise<void> {
  const g = await git()
  await g.checkout({ fs, dir, ref: commit, force })
}

/** Files of the working tree that differ from HEAD (edited, added or deleted by hand). */
export async function localChanges(dir: string): Promise<string[]> {
  const g = await git()
  const matrix = await g.statusMatrix({ fs, dir })
  return matrix.filter(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1)).map(([path]) => path)
}

/** Every blob under `subdir` in a commit: path (relative to subdir, posix) -> blob id. */
export async function listBlobs(dir: string, commit: string, subdir: string): Promise<Map<string, string>> {
  const g = await git()
  const { commit: parsed } = await g.readCommit({ fs, dir, oid: commit })
  const blobs = new Map<string, string>()
  const prefix = subdir.replace(/^\.?\/+|\/+$/g, '')
  if (prefix === '') {
    await readTreeDeep(g, dir, parsed.tree, '', blobs)
    return blobs
  }
  try {
    const { oid } = await g.readTree({ fs, dir, oid: parsed.tree, filepath: prefix })
    await readTreeDeep(g, dir, oid, '', blobs)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'NotFoundError') throw error
  }
  return blobs
}

async function readTreeDeep(g: typeof import('isomorphic-git').default, dir: string, tree: string, prefix: string, into: Map<string, string>): Promise<void> {
  const { tree: entries } = await g.readTree({ fs, dir, oid: tree })
  for (const entry of entries) {
    const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`
    if (entry.type === 'tree') await readTreeDeep(g, dir, entry.oid, path, into)
    else if (entry.type === 'blob') into.set(path, entry.oid)
  }
}

function shortRef(fullRef: string): string {
  return fullRef.replace(/^refs\/(heads|tags)\//, '')
}
