import { describe, expect, it } from 'vitest'
import { cookieValue, sessionCookie, UiSessions } from '../../../src/hosts/http/ui-session.js'

const secret = Buffer.alloc(32, 7)

describe('UiSessions', () => {
  it('reads back the tenant of a session it issued, until it expires', () => {
    const sessions = new UiSessions(60, secret)
    const value = sessions.issue('team-a', 1000)
    expect(sessions.read(value, 1000)).toEqual({ tenantId: 'team-a', expiresAt: 1060 })
    expect(sessions.read(value, 1059)?.tenantId).toBe('team-a')
    expect(sessions.read(value, 1060)).toBeUndefined()
  })

  it('refuses a value whose tenant or expiry was changed, one signed with another secret, and garbage', () => {
    const sessions = new UiSessions(60, secret)
    const value = sessions.issue('team-a', 1000)
    expect(sessions.read(value.replace('team-a', 'team-b'), 1000)).toBeUndefined()
    expect(sessions.read(value.replace('.1060.', '.9999.'), 1000)).toBeUndefined()
    expect(new UiSessions(60, Buffer.alloc(32, 8)).read(value, 1000)).toBeUndefined()
    for (const bad of [undefined, '', 'team-a', 'team-a.1060', '../x.1060.abc', `${value}x`]) expect(sessions.read(bad, 1000)).toBeUndefined()
  })

  it('finds its cookie in a Cookie header and sets it HttpOnly, SameSite=Strict, Secure only over TLS', () => {
    expect(cookieValue('a=1; mk_ui_session=team-a.5.x; b=2', 'mk_ui_session')).toBe('team-a.5.x')
    expect(cookieValue('a=1', 'mk_ui_session')).toBeUndefined()
    expect(sessionCookie('v', 60, false)).toBe('mk_ui_session=v; Path=/ui; Max-Age=60; HttpOnly; SameSite=Strict')
    expect(sessionCookie('v', 60, true)).toMatch(/; Secure$/)
  })
})
