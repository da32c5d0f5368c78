import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { KnowledgeSourceConfig } from '../config/schema.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { remoteError } from '../git/errors.js'
import { displayUrl, gitHttpClient, hasCredentialsInUrl, tokenHeaders } from '../git/http.js'
import { checkoutCommit, cloneFresh, fetchRef, inspectClone, isFastForward, type TransferOptions } from '../git/mirror.js'
import { resolveRemoteRef, type RemoteRef } from '../git/remote-ref.js'
import { gitSourceCloneDir } from '../knowledge/sources.js'
import { withLock } from './lock.js'

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

interface Remote {
  transfer: TransferOptions
  describe: { source: string; url: string; tokenEnv: string | undefined }
  tokenPresent: boolean
}

export async function connectRemote(source: GitSourceConfig, options: Pick<MirrorOptions, 'env' | 'timeoutMs' | 'signal'>): Promise<Remote> {
  if (hasCredentialsInUrl(source.url)) {
    throw new MkError('INVALID_INPUT', `source "${source.name}": the url carries credentials; they would be stored on disk`, {
      details: { source: source.name, hint: `remove them from the url and put the token in an environment variable named by tokenEnv` },
    })
  }
  const token = source.tokenEnv === undefined ? undefined : options.env[source.tokenEnv]
  const http = await gitHttpClient({ timeoutMs: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) })
  return {
    transfer: { http, url: source.url, headers: tokenHeaders(token) },
    describe: { source: source.name, url: source.url, tokenEnv: source.tokenEnv },
    tokenPresent: token !== undefined && token !== '',
  }
}

/** Ask the remote which commit the source's ref points at now. */
export async function probeRemote(source: GitSourceConfig, remote: Remote): Promise<RemoteRef> {
  try {
    return await resolveRemoteRef({ ...remote.transfer, ref: source.ref, source: source.name })
  } catch (error) {
    throw remoteError(error, remote.describe, remote.tokenPresent)
  }
}

/**
 * Bring the local clone of a git source to the commit its ref points at on the remote:
 * clone when missing or corrupt, fetch + fast-forward otherwise. A failure leaves the
 * last good copy in place; a rewritten remote history is refused unless `force`.
 */
export async function mirrorGitSource(workspace: Workspace, source: GitSourceConfig, options: MirrorOptions): Promise<MirrorResult> {
  const dir = gitSourceCloneDir(workspace, source.name)
  await mkdir(dirname(dir), { recursive: true })
  const remote = await connectRemote(source, options)
  const transfer: TransferOptions = {
    ...remote.transfer,
    ...(options.onProgress === undefined ? {} : { onProgress: (event) => options.onProgress?.(event.phase, event.loaded, event.total) }),
  }
  return withLock(join(dirname(dir), `.${source.name}.lock`), `source "${source.name}"`, async () => {
    const target = await probeRemote(source, remote)
    const local = await inspectClone(dir)
    try {
      if (local.state === 'corrupt') options.warn(`source "${source.name}": the local clone is damaged (${local.reason}); cloning it again`)
      if (local.state === 'ok' && local.url !== source.url) {
        options.warn(`source "${source.name}": the local clone came from ${displayUrl(local.url ?? '?')}; cloning ${displayUrl(source.url)} instead`)
      }
      if (local.state !== 'ok' || local.url !== source.url) {
        const commit = await cloneFresh(dir, target.fullRef, transfer)
        return { action: 'cloned', commit, previousCommit: undefined, fullRef: target.fullRef }
      }
      if (local.head === target.commit) return { action: 'unchanged', commit: local.head, previousCommit: local.head, fullRef: target.fullRef }
      const fetched = await fetchRef(dir, target.fullRef, transfer)
      const fastForward = await isFastForward(dir, local.head, fetched)
      if (!fastForward && !options.force) {
        throw new MkError('CONFLICT', `source "${source.name}": the remote history was rewritten (${short(local.head)} is not an ancestor of ${short(fetched)}); kept ${short(local.head)}`, {
          details: { source: source.name, local: local.head, remote: fetched, hint: 'check with the repository owners, then run mk sync --force to accept the new history' },
        })
      }
      await checkoutCommit(dir, fetched, options.force).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== 'CheckoutConflictError') throw error
        const files = (error as { data?: { filepaths?: string[] } }).data?.filepaths ?? []
        throw new MkError('CONFLICT', `source "${source.name}": files of the local clone were edited (${files.slice(0, 3).join(', ')}); kept ${short(local.head)}`, {
          details: { source: source.name, files, hint: 'run mk sync --force to discard the local edits' },
        })
      })
      return { action: 'updated', commit: fetched, previousCommit: local.head, fullRef: target.fullRef }
    } catch (error) {
      throw remoteError(error, remote.describe, remote.tokenPresent)
    }
  })
}

function short(commit: string): string {
  return commit.slice(0, 7)
}
