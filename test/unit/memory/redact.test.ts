import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../../../src/memory/redact.js'

describe('secret redaction', () => {
  it('replaces tokens, keys and connection-string passwords, keeping the rest readable', async () => {
    const privateKey = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmwIDAQAB',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n')
    const text = [
      'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzRlKeY12x',
      'db: postgres://app:hunter2secret@db.internal:5432/app',
      'slack xoxb-1234567890-1234567890-abcdefghijklmnopqrstuvwx',
      privateKey,
    ].join('\n')
    const { text: redacted, redactions } = await redactSecrets(text)
    expect(redacted).toBe(
      [
        'aws_secret_access_key=[REDACTED:aws]',
        'db: postgres://app:[REDACTED:connection-string-password]@db.internal:5432/app',
        'slack [REDACTED:slack]',
        '[REDACTED:private-key]',
      ].join('\n'),
    )
    expect(redactions).toEqual([
      { kind: 'aws', count: 1 },
      { kind: 'connection-string-password', count: 1 },
      { kind: 'private-key', count: 1 },
      { kind: 'slack', count: 1 },
    ])
  })

  it('redacts every occurrence of a found secret', async () => {
    const token = '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'
    const { text, redactions } = await redactSecrets(`token ${token}, again: ${token}`)
    expect(text).toBe('token [REDACTED:github], again: [REDACTED:github]')
    expect(redactions).toEqual([{ kind: 'github', count: 2 }])
  })

  it('leaves ordinary text alone', async () => {
    expect(await redactSecrets('The staging DB is read-only on Fridays')).toEqual({ text: 'The staging DB is read-only on Fridays', redactions: [] })
  })
})
