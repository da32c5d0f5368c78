import type { GitHttpRequest, HttpClient } from 'isomorphic-git'

export interface HttpOptions {
  /** Give up on a request whose server stays silent this long. */
  timeoutMs: number
  signal?: AbortSignal
}

/** Seconds to wait from a Retry-After header (delay-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim()
  if (value === undefined || value === '') return undefined
  if (/^\d+$/.test(value)) return Number.parseInt(value, 10)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

/** An HTTP failure in the shape isomorphic-git gives one (code HttpError), so src/git/errors.ts maps every request's failures alike. */
export function httpError(statusCode: number, statusMessage: string, headers: Record<string, string | string[] | undefined> = {}): Error {
  const retryAfter = retryAfterSeconds(headers['retry-after'])
  return Object.assign(new Error(`HTTP Error: ${statusCode} ${statusMessage}`), {
    code: 'HttpError',
    data: { statusCode, statusMessage, ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }) },
  })
}

/**
 * isomorphic-git's node client, with a timeout and an abort signal on every request.
 * A 429 is thrown here, where its Retry-After header is still known.
 */
export async function gitHttpClient(options: HttpOptions): Promise<HttpClient> {
  const { default: http } = await import('isomorphic-git/http/node')
  return {
    async request(request: GitHttpRequest) {
      const response = await http.request({
        ...request,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        fetchOptions: { timeout: options.timeoutMs },
      })
      if (response.statusCode === 429) throw httpError(429, response.statusMessage, lowerCaseKeys(response.headers ?? {}))
      return response
    },
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]))
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
