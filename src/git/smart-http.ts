import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { httpError } from './http.js'

export interface AdvertisedRef {
  ref: string
  oid: string
  /** For an annotated tag, the commit it points to. */
  peeled?: string
  /** For HEAD, the branch it points to. */
  target?: string
}

function get(url: URL, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal | undefined, redirects = 5): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined
    if (send === undefined) {
      reject(new Error(`unsupported url scheme ${url.protocol} (use http or https)`))
      return
    }
    const request = send(
      url,
      { method: 'GET', headers: { 'User-Agent': 'git/mk', Accept: '*/*', ...headers }, timeout: timeoutMs, ...(signal === undefined ? {} : { signal }) },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0
        const location = response.headers.location
        if (status >= 300 && status < 400 && location !== undefined && redirects > 0) {
          response.resume()
          get(new URL(location, url), headers, timeoutMs, signal, redirects - 1).then(resolve, reject)
          return
        }
        if (status !== 200) {
          response.resume()
          reject(httpError(status, response.statusMessage ?? '', response.headers))
          return
        }
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve(Buffer.concat(chunks)))
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(Object.assign(new Error(`request timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' })))
    request.on('error', reject)
    request.end()
  })
}

/** Split a git pkt-line stream; a flush packet is returned as null. */
function pktLines(body: Buffer): (string | null)[] {
  const lines: (string | null)[] = []
  let offset = 0
  while (offset + 4 <= body.length) {
    const length = Number.parseInt(body.subarray(offset, offset + 4).toString('ascii'), 16)
    if (Number.isNaN(length)) throw new Error('the server did not answer with the git smart-HTTP protocol')
    if (length === 0) {
      lines.push(null)
      offset += 4
      continue
    }
    lines.push(
      body
        .subarray(offset + 4, offset + length)
        .toString('utf8')
        .replace(/\n$/, ''),
    )
    offset += length
  }
  return lines
}

/**
 * The refs a smart-HTTP git server advertises (one GET of info/refs, protocol v0/v1).
 * Much lighter than loading a git implementation, so a sync with nothing new stays fast.
 */
export async function advertisedRefs(url: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<AdvertisedRef[]> {
  const base = url.endsWith('/') ? url.slice(0, -1) : url
  const body = await get(new URL(`${base}/info/refs?service=git-upload-pack`), headers, timeoutMs, signal)
  const lines = pktLines(body)
  if (!(lines[0] ?? '').startsWith('# service=git-upload-pack')) throw new Error('the server did not answer with the git smart-HTTP protocol')
  const refs = new Map<string, AdvertisedRef>()
  let symrefHead: string | undefined
  for (const line of lines.slice(1)) {
    if (line === null) continue
    const [refPart, capabilities] = line.split('\0')
    const match = /^([0-9a-f]{40}) (.+)$/.exec(refPart ?? '')
    if (match === null) continue
    const [, oid = '', name = ''] = match
    const symref = /(?:^| )symref=HEAD:(\S+)/.exec(capabilities ?? '')
    if (symref?.[1] !== undefined) symrefHead = symref[1]
    if (name === 'capabilities^{}') continue
    if (name.endsWith('^{}')) {
      const tag = refs.get(name.slice(0, -3))
      if (tag !== undefined) tag.peeled = oid
      continue
    }
    refs.set(name, { ref: name, oid })
  }
  const head = refs.get('HEAD')
  if (head !== undefined && symrefHead !== undefined) head.target = symrefHead
  return [...refs.values()]
}
