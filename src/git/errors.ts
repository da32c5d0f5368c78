import { MkError, isNodeError } from '../errors.js'
import { displayUrl } from './http.js'

export interface RemoteDescription {
  /** The knowledge source the remote belongs to, named in every message. */
  source: string
  url: string
  tokenEnv: string | undefined
}

const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET'])

function httpFailure(error: unknown): { status: number; retryAfterSeconds: number | undefined } | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'HttpError') return undefined
  const data = (error as { data?: { statusCode?: unknown; retryAfterSeconds?: unknown } }).data
  if (typeof data?.statusCode !== 'number') return undefined
  return { status: data.statusCode, retryAfterSeconds: typeof data.retryAfterSeconds === 'number' ? data.retryAfterSeconds : undefined }
}

function networkCode(error: unknown): string | undefined {
  if (isNodeError(error) && error.code !== undefined && networkCodes.has(error.code)) return error.code
  if (error instanceof Error && /timed out/i.test(error.message)) return 'ETIMEDOUT'
  if (error instanceof Error && error.cause !== undefined) return networkCode(error.cause)
  return undefined
}

function tokenHint(remote: RemoteDescription, present: boolean): string {
  if (remote.tokenEnv === undefined)
    return `add tokenEnv: SOME_VARIABLE to source "${remote.source}" in .mkrc and export SOME_VARIABLE=<a token with read access>`
  return present
    ? `the token in $${remote.tokenEnv} was refused: export ${remote.tokenEnv}=<a token with read access to ${displayUrl(remote.url)}>`
    : `export ${remote.tokenEnv}=<a token with read access to ${displayUrl(remote.url)}>`
}

/** Turn whatever isomorphic-git or the network threw into an MkError that names the source and says what to do. */
export function remoteError(error: unknown, remote: RemoteDescription, tokenPresent: boolean): MkError {
  if (error instanceof MkError) return error
  const url = displayUrl(remote.url)
  const failure = httpFailure(error)
  const status = failure?.status
  const details = { source: remote.source, url }
  if (status === 401 || status === 403) {
    const what = status === 401 ? 'asked for credentials' : 'refused access'
    return new MkError('UNAUTHORIZED', `source "${remote.source}": ${url} ${what} (HTTP ${status})`, {
      details: { ...details, status, hint: tokenHint(remote, tokenPresent) },
    })
  }
  if (status === 404) {
    return new MkError('NOT_FOUND', `source "${remote.source}": no repository at ${url} (HTTP 404)`, {
      details: { ...details, status, hint: `check the url of source "${remote.source}" in .mkrc` },
    })
  }
  if (status === 429) {
    const retryAfterSeconds = failure?.retryAfterSeconds
    const wait = retryAfterSeconds === undefined ? 'later' : `in ${retryAfterSeconds} s`
    return new MkError('RATE_LIMITED', `source "${remote.source}": ${url} is limiting requests (HTTP 429); the last synced copy stays in use`, {
      details: { ...details, status, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }), hint: `run mk sync again ${wait}` },
      retryable: true,
    })
  }
  if (status !== undefined) {
    return new MkError('PROVIDER_ERROR', `source "${remote.source}": ${url} answered HTTP ${status}`, {
      details: { ...details, status, hint: 'try again later: mk sync' },
      retryable: status >= 500,
    })
  }
  const code = networkCode(error)
  if (code === 'ETIMEDOUT') {
    return new MkError('TIMEOUT', `source "${remote.source}": ${url} did not answer in time; the last synced copy stays in use`, {
      details: { ...details, code, hint: 'check the network and that the remote answers, then run mk sync again' },
      retryable: true,
    })
  }
  if (code !== undefined) {
    const why = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'host not found' : code
    return new MkError('PROVIDER_ERROR', `source "${remote.source}": cannot reach ${url} (${why})`, {
      details: { ...details, code, hint: 'check the network or the url, then run mk sync again; the last synced copy stays in use' },
      retryable: true,
    })
  }
  if (error instanceof Error && (error as { code?: unknown }).code === 'NotFoundError') {
    return new MkError('NOT_FOUND', `source "${remote.source}": ${error.message}`, { details })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new MkError('PROVIDER_ERROR', `source "${remote.source}": git failed: ${message}`, { details, retryable: false })
}
