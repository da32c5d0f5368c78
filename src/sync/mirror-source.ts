import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { KnowledgeSourceConfig } from '../config/schema.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { remoteError, type RemoteDescription } from '../git/errors.js'
import { displayUrl, gitHttpClient, hasCredentialsInUrl, isHttpUrl, tokenHeaders } from '../git/http.js'
import type { TransferOptions } from '../git/mirror.js'
import { quickLook } from '../git/quick-look.js'
import { resolveRemoteRef, type RemoteRef } from '../git/remote-ref.js'
import { gitSourceCloneDir } from '../knowledge/sources.js'
import { withLock } from '../fs/lock.js'
import { removeAbandonedClones } from '../git/abandoned-clones.js'

export type GitSourceConfig = Extract<KnowledgeSourceConfig, { url: string }>

export interface MirrorOptions {
  force: boolean
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
  warn(message: string): void
  onProgress?: (phase: string, loaded: number, total: number | undefined) => void
}

export interface MirrorResult {
  action: 'cloned' | 'updated' | 'unchanged'
  commit: string
  previousCommit: string | undefined
  fullRef: string
}

export interface Remote {
  url: string
  headers: Record<string, string>
  describe: RemoteDescription
  tokenPresent: boolean
  timeoutMs: number
  signal: AbortSignal | undefined
}

/** How to talk to a source's remote: its url and credentials from the environment (never stored). */
export function remoteOf(source: GitSourceConfig, options: Pick<MirrorOptions, 'env' | 'timeoutMs' | 'signal'>): Remote {
  if (!isHttpUrl(source.url)) {
    throw new MkError('INVALID_INPUT', `source "${source.name}": url ${displayUrl(source.url)} is not http(s); mk syncs git over smart HTTP only`, {
      details: { source: source.name, hint: `use the https:// url of the repository in knowledge.sources (source "${source.name}")` },
    })
  }
  if (hasCredentialsInUrl(source.url)) {
    throw new MkError('INVALID_INPUT', `source "${source.name}": the url carries credentials; they would be stored on disk`, {
      details: { source: source.name, hint: `remove them from the url and put the token in an environment variable named by tokenEnv` },
    })
  }
  const token = source.tokenEnv === undefined ? undefined : options.env[source.tokenEnv]
  return {
    url: source.url,
    headers: tokenHeaders(token),
    describe: { source: source.name, url: source.url, tokenEnv: source.tokenEnv },
    tokenPresent: token !== undefined && token !== '',
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  }
}

/** Ask the remote which commit the source's ref points at now (one request). */
export async function probeRemote(source: GitSourceConfig, remote: Remote): Promise<RemoteRef> {
  try {
    return await resolveRemoteRef({
      url: remote.url,
      headers: remote.headers,
      ref: source.ref,
      source: source.name,
      timeoutMs: remote.timeoutMs,
      ...(remote.signal === undefined ? {} : { signal: remote.signal }),
    })
  } catch (error) {
    throw remoteError(error, remote.describe, remote.tokenPresent)
  }
}

/** Clone, re-clone or fast-forward with isomorphic-git, holding the clone's lock. */
async function transfer(dir: string, source: GitSourceConfig, remote: Remote, target: RemoteRef, options: MirrorOptions): Promise<MirrorResult> {
  const { checkoutCommit, cloneFresh, fetchRef, inspectClone, isFastForward } = await import('../git/mirror.js')
  const http = await gitHttpClient({ timeoutMs: remote.timeoutMs, ...(remote.signal === undefined ? {} : { signal: remote.signal }) })
  const transferOptions: TransferOptions = {
    http,
    url: remote.url,
    headers: remote.headers,
    ...(options.onProgress === undefined ? {} : { onProgress: (event) => options.onProgress?.(event.phase, event.loaded, event.total) }),
  }
  const local = await inspectClone(dir)
  if (local.state === 'corrupt') options.warn(`source "${source.name}": the local clone is damaged (${local.reason}); cloning it again`)
  if (local.state === 'ok' && local.url !== source.url) {
    options.warn(`source "${source.name}": the local clone came from ${displayUrl(local.url ?? '?')}; cloning ${displayUrl(source.url)} instead`)
  }
  if (local.state !== 'ok' || local.url !== source.url) {
    const commit = await cloneFresh(dir, target.fullRef, transferOptions)
    return { action: 'cloned', commit, previousCommit: undefined, fullRef: target.fullRef }
  }
  if (local.head === target.commit && !options.force) return { action: 'unchanged', commit: local.head, previousCommit: local.head, fullRef: target.fullRef }
  const fetched = local.head === target.commit ? local.head : await fetchRef(dir, target.fullRef, transferOptions)
  if (!(await isFastForward(dir, local.head, fetched)) && !options.force) {
    throw new MkError(
      'CONFLICT',
      `source "${source.name}": the remote history was rewritten (${short(local.head)} is not an ancestor of ${short(fetched)}); kept ${short(local.head)}`,
      {
        details: {
          source: source.name,
          local: local.head,
          remote: fetched,
          hint: 'check with the repository owners, then run mk sync --force to accept the new history',
        },
      },
    )
  }
  await checkoutCommit(dir, fetched, options.force).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'CheckoutConflictError') throw error
    const files = (error as { data?: { filepaths?: string[] } }).data?.filepaths ?? []
    throw new MkError(
      'CONFLICT',
      `source "${source.name}": files of the local clone were edited (${files.slice(0, 3).join(', ')}); kept ${short(local.head)}`,
      {
        details: { source: source.name, files, hint: 'run mk sync --force to discard the local edits' },
      },
    )
  })
  return { action: fetched === local.head ? 'unchanged' : 'updated', commit: fetched, previousCommit: local.head, fullRef: target.fullRef }
}

/**
 * Bring the local clone of a git source to the commit its ref points at on the remote:
 * clone when missing or damaged, fetch + fast-forward otherwise. A failure leaves the
 * last good copy in place; a rewritten remote history is refused unless `force`.
 * When the clone already has that commit, git itself is never loaded.
 */
export async function mirrorGitSource(workspace: Workspace, source: GitSourceConfig, options: MirrorOptions): Promise<MirrorResult> {
  const dir = gitSourceCloneDir(workspace, source.name)
  // A sync killed half-way leaves its temp clone (or the copy it was replacing) beside the clone.
  await removeAbandonedClones(dir)
  const remote = remoteOf(source, options)
  const target = await probeRemote(source, remote)
  const look = await quickLook(dir)
  if (!options.force && look !== undefined && look.url === source.url && look.head === target.commit) {
    return { action: 'unchanged', commit: look.head, previousCommit: look.head, fullRef: target.fullRef }
  }
  await mkdir(dirname(dir), { recursive: true })
  return withLock(join(dirname(dir), `.${source.name}.lock`), { what: `source "${source.name}"`, onBusy: 'fail', retry: 'mk sync' }, async () => {
    try {
      return await transfer(dir, source, remote, target, options)
    } catch (error) {
      throw remoteError(error, remote.describe, remote.tokenPresent)
    }
  })
}

function short(commit: string): string {
  return commit.slice(0, 7)
}
