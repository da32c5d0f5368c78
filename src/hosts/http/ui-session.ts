import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { tenantIdPattern } from './routes.js'

export const uiCookieName = 'mk_ui_session'

/** A signed-in browser: the tenant whose site it may read, until when. */
export interface UiSession {
  tenantId: string
  /** Seconds since the epoch. */
  expiresAt: number
}

/**
 * Sessions of the web UI as signed cookie values, `<tenant>.<expiry>.<mac>`: nothing is stored on the
 * server, a value cannot be made or changed without the server's secret (random per process, so a
 * restart signs everyone out), and it carries its own expiry, checked on every request.
 */
export class UiSessions {
  constructor(
    readonly ttlSeconds: number,
    private readonly secret: Buffer = randomBytes(32),
  ) {}

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest()
  }

  issue(tenantId: string, nowSeconds: number): string {
    const payload = `${tenantId}.${nowSeconds + this.ttlSeconds}`
    return `${payload}.${this.mac(payload).toString('base64url')}`
  }

  /** The session a cookie value proves, or undefined for a value that is malformed, forged or expired. */
  read(value: string | undefined, nowSeconds: number): UiSession | undefined {
    const match = /^([^.]+)\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '')
    if (match === null) return undefined
    const [, tenantId = '', expiry = '', mac = ''] = match
    if (!tenantIdPattern.test(tenantId)) return undefined
    if (!timingSafeEqual(this.mac(`${tenantId}.${expiry}`), Buffer.from(mac, 'base64url'))) return undefined
    const expiresAt = Number(expiry)
    return expiresAt > nowSeconds ? { tenantId, expiresAt } : undefined
  }
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}

/** The Set-Cookie of a session: script cannot read it, no other site's page sends it, and over TLS it never travels in clear. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${uiCookieName}=${value}; Path=/ui; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}
