import { MkError } from '../errors.js'
import { advertisedRefs } from './smart-http.js'

export interface RemoteRef {
  /** Full name on the remote, e.g. `refs/heads/main` or `refs/tags/v2`. */
  fullRef: string
  /** The commit it points to (tags peeled). */
  commit: string
}

/**
 * Ask the remote (one request) which commit a branch or tag points to; no ref means the remote's HEAD.
 */
export async function resolveRemoteRef(options: {
  url: string
  ref: string | undefined
  headers: Record<string, string>
  source: string
  timeoutMs: number
  signal?: AbortSignal
}): Promise<RemoteRef> {
  const refs = await advertisedRefs(options.url, options.headers, options.timeoutMs, options.signal)
  const byName = new Map(refs.map((entry) => [entry.ref, entry]))
  const wanted = options.ref ?? 'HEAD'
  const candidates = wanted === 'HEAD' ? ['HEAD'] : [wanted, `refs/heads/${wanted}`, `refs/tags/${wanted}`]
  for (const name of candidates) {
    const found = byName.get(name)
    if (found === undefined) continue
    const fullRef = name === 'HEAD' ? (found.target ?? 'HEAD') : name
    return { fullRef, commit: found.peeled ?? found.oid }
  }
  if (refs.length === 0) {
    throw new MkError('NOT_FOUND', `source "${options.source}": the remote repository is empty`, {
      details: { source: options.source, hint: 'push at least one commit to it, or remove the source from .mkrc' },
    })
  }
  const branches = refs.filter((entry) => entry.ref.startsWith('refs/heads/')).map((entry) => entry.ref.slice('refs/heads/'.length))
  throw new MkError('NOT_FOUND', `source "${options.source}": no branch or tag "${wanted}" on the remote`, {
    details: { source: options.source, branches, hint: `set ref to one of: ${branches.slice(0, 10).join(', ')}` },
  })
}
