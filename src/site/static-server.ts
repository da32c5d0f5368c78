import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { extname, join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { insideWorkspace, resolvesWithin } from '../fs/path-guard.js'

/** The Content-Type of each kind of file a site holds. */
export const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

export interface StaticSite {
  url: string
  server: Server
  close(): Promise<void>
}

/** The file a request path names inside the site folder, or undefined for a path that leaves it (as written or through a link). */
export async function siteFile(folder: string, requestPath: string): Promise<string | undefined> {
  let decoded: string
  try {
    decoded = decodeURIComponent(requestPath.split('?')[0] ?? '/')
  } catch {
    return undefined
  }
  if (decoded.includes('\0')) return undefined
  const relative = insideWorkspace(folder, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`)
  if (relative === undefined) return undefined
  const file = join(folder, relative)
  if (!resolvesWithin([{ path: folder, name: 'the site' }], file)) return undefined
  const info = await stat(file).catch(() => undefined)
  return info?.isFile() === true ? file : undefined
}

/** Serves a built site read-only on 127.0.0.1 (never another interface): a preview, not a production host. */
export async function serveSite(folder: string, port = 0): Promise<StaticSite> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    void siteFile(folder, request.url ?? '/').then(
      (file) => {
        if (file === undefined) {
          response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n')
          return
        }
        response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream', 'x-content-type-options': 'nosniff' })
        if (request.method === 'HEAD') response.end()
        else createReadStream(file).pipe(response)
      },
      () => response.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}/`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
