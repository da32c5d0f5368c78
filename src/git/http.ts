import type { GitHttpRequest, HttpClient } from 'isomorphic-git'

export interface HttpOptions {
  /** Give up on a request whose server stays silent this long. */
  timeoutMs: number
  signal?: AbortSignal
}

/** isomorphic-git's node client, with a timeout and an abort signal on every request. */
export async function gitHttpClient(options: HttpOptions): Promise<HttpClient> {
  const { default: http } = await import('isomorphic-git/http/node')
  return {
    request: (request: GitHttpRequest) =>
      http.request({
        ...request,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        fetchOptions: { timeout: options.timeoutMs },
      }),
  }
}

/**
 * Basic credentials for a token. A value `user:token` names the user; a bare token
 * goes with the user name GitHub expects for tokens (other hosts accept any name).
 * Sent with every request, never stored.
 */
export function tokenHeaders(token: string | undefined): Record<string, string> {
  if (token === undefined || token === '') return {}
  const credentials = token.includes(':') ? token : `x-access-token:${token}`
  return { Authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` }
}

/** A URL safe to print, without the user or password written into it. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return url
  }
}

/** Only smart HTTP(S) is spoken; ssh and file urls are refused up front. */
export function isHttpUrl(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol)
  } catch {
    return false
  }
}

export function hasCredentialsInUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.username !== '' || parsed.password !== ''
  } catch {
    return false
  }
}
