import { createReadStream } from 'node:fs'
import { extname } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RuntimeEnv } from '../../config/workspace.js'
import { MkError, toErrorObject } from '../../errors.js'
import type { TenantPlaces } from '../../fs/tenant-text.js'
import { stylesheet } from '../../site/assets.js'
import { contentTypes, siteFile } from '../../site/static-server.js'
import type { Authenticator } from './auth.js'
import type { CallScheduler } from './call-scheduler.js'
import { headerText } from './replies.js'
import { SignInFailures } from './sign-in-failures.js'
import { errorForTenant } from './tenant-errors.js'
import { defaultScope, defaultTenant } from './tenants.js'
import { loginPage, problemPage, uiContentSecurityPolicy } from './ui-pages.js'
import { cookieValue, sessionCookie, uiCookieName, UiSessions } from './ui-session.js'
import { TenantSites } from './ui-sites.js'

export interface UiPluginOptions {
  auth: Authenticator
  calls: CallScheduler
  runtime: RuntimeEnv
  placesOf: (tenantId: string, scope: string) => TenantPlaces
  log: (line: string) => void
}

const defaultSessionSeconds = 8 * 60 * 60
const maxKeyLength = 4096

function wholeSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) {
    throw new MkError('INVALID_INPUT', `${name} must be a whole number of seconds of at least 1, got "${text}"`, { details: { field: name } })
  }
  return value
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/** A JWT is three base64url parts; anything else a browser pastes is taken for an API key. */
const looksLikeJwt = (text: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(text)

/**
 * The knowledge site, live at /ui/, per tenant and behind the server's auth. A browser cannot send
 * X-Api-Key, so it signs in once with a form (POST /ui/login) and gets a session cookie naming its
 * tenant (HttpOnly, SameSite=Strict, Secure over TLS; ADR 0030). Every page then shows only that
 * tenant's site, built on demand and kept until the tenant's knowledge changes. Read-only: the only
 * state-changing requests are signing in and out.
 */
export async function uiPlugin(app: FastifyInstance, options: UiPluginOptions): Promise<void> {
  const env = process.env
  const sessions = new UiSessions(wholeSeconds(env, 'MK_UI_SESSION_S', defaultSessionSeconds))
  const sites = new TenantSites(options.calls, options.runtime, {
    recheckMs: 2000,
    maxAgeMs: wholeSeconds(env, 'MK_UI_SITE_MAX_AGE_S', 10 * 60) * 1000,
  })
  const authOff = options.auth.mode === 'off'
  const signInFailures = new SignInFailures()
  const credential = options.auth.mode === 'jwt' ? 'your JWT' : options.auth.mode === 'api_key' ? 'your API key' : 'your API key or JWT'

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 2 * maxKeyLength }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })

  const sendPage = (reply: FastifyReply, status: number, content: string): FastifyReply =>
    reply
      .code(status)
      .header('content-security-policy', uiContentSecurityPolicy)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(content)

  /** The tenant the request's session cookie proves; with auth off, the default tenant. */
  const tenantOf = (request: FastifyRequest): string | undefined => {
    if (authOff) return defaultTenant
    return sessions.read(cookieValue(headerText(request.headers.cookie), uiCookieName), nowSeconds())?.tenantId
  }

  /**
   * A sign-in or sign-out posted from another site's page (login CSRF) is refused: a browser says where a
   * request comes from in Sec-Fetch-Site, an older one in Origin; a client that sends neither is not a browser.
   */
  const fromThisSite = (request: FastifyRequest): boolean => {
    const fetchSite = headerText(request.headers['sec-fetch-site'])
    if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none'
    const origin = headerText(request.headers.origin)
    if (origin === undefined) return true
    try {
      return new URL(origin).host === request.headers.host
    } catch {
      return false
    }
  }

  app.get('/ui', (_request, reply) => reply.redirect('/ui/', 302))
  app.get('/ui/login.css', (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .type(contentTypes['.css'] ?? 'text/css')
      .send(stylesheet),
  )
  app.get('/ui/login', (request, reply) =>
    authOff || tenantOf(request) !== undefined ? reply.redirect('/ui/', 303) : sendPage(reply, 200, loginPage(undefined, credential)),
  )

  app.post('/ui/login', async (request, reply) => {
    if (!fromThisSite(request)) return sendPage(reply, 403, problemPage('Sign in from this server’s own page.'))
    if (authOff) return reply.redirect('/ui/', 303)
    const key = (request.body as Record<string, unknown> | undefined)?.key
    if (typeof key !== 'string' || key === '' || key.length > maxKeyLength) return sendPage(reply, 400, loginPage('Paste a key.', credential))
    // Guessing keys: an address that posted several wrong ones waits before its next is even checked.
    const waitSeconds = signInFailures.waitSeconds(request.ip)
    if (waitSeconds !== undefined) {
      void reply.header('retry-after', String(waitSeconds))
      return sendPage(reply, 429, loginPage(`Too many wrong keys from your address: try again in ${waitSeconds} s.`, credential))
    }
    const asBearer = options.auth.mode === 'jwt' || (options.auth.mode === 'api_key_or_jwt' && looksLikeJwt(key))
    let tenantId: string | undefined
    try {
      tenantId = (await options.auth.identify(asBearer ? { apiKey: undefined, authorization: `Bearer ${key}` } : { apiKey: key, authorization: undefined }))
        ?.tenantId
    } catch {
      tenantId = undefined
    }
    if (tenantId === undefined) {
      signInFailures.failed(request.ip)
      return sendPage(reply, 401, loginPage('That key is not known to this server.', credential))
    }
    signInFailures.succeeded(request.ip)
    return reply
      .header('set-cookie', sessionCookie(sessions.issue(tenantId, nowSeconds()), sessions.ttlSeconds, request.protocol === 'https'))
      .header('cache-control', 'no-store')
      .redirect('/ui/', 303)
  })

  app.post('/ui/logout', (request, reply) => {
    if (!fromThisSite(request)) return sendPage(reply, 403, problemPage('Sign out from this server’s own page.'))
    return reply.header('set-cookie', sessionCookie('', 0, request.protocol === 'https')).redirect('/ui/login', 303)
  })

  app.get('/ui/*', async (request, reply) => {
    const tenantId = tenantOf(request)
    if (tenantId === undefined) return reply.header('cache-control', 'no-store').redirect('/ui/login', 303)
    let folder: string
    try {
      folder = await sites.folder(tenantId)
    } catch (thrown) {
      const error = errorForTenant(toErrorObject(thrown), options.placesOf(tenantId, defaultScope), request.id, options.log)
      return sendPage(reply, error.errorCode === 'RATE_LIMITED' ? 429 : 503, problemPage(error.message))
    }
    // The raw path after /ui: the site's own guard decodes it once and refuses anything that leaves the folder.
    const file = await siteFile(folder, request.url.slice('/ui'.length))
    if (file === undefined) return sendPage(reply, 404, problemPage('No such page on this site.'))
    return reply
      .header('content-security-policy', uiContentSecurityPolicy)
      .header('cache-control', 'private, no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .type(contentTypes[extname(file)] ?? 'application/octet-stream')
      .send(createReadStream(file))
  })
}
