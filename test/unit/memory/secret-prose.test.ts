import { describe, expect, it } from 'vitest'
import { redactFields, redactSecrets } from '../../../src/memory/redact.js'
import { proseNotSecrets, proseSecretFormats } from '../../fixtures/secret-formats.js'

// Issue 25 item 13: secrets named in a sentence, followed by punctuation or inside a URL.
describe('secrets in prose', () => {
  const formats = proseSecretFormats()

  it('covers at least 50 formats', () => {
    expect(formats.length).toBeGreaterThanOrEqual(50)
  })

  it('redacts all but at most 2 of them', async () => {
    const leaked: string[] = []
    for (const format of formats) {
      const redacted = await redactSecrets(`Handover: ${format.text}\n`)
      if (redacted.text.includes(format.secret)) leaked.push(`${format.name}: ${format.text}`)
    }
    expect(leaked.length, leaked.join('\n')).toBeLessThanOrEqual(2)
  })

  it.each(proseNotSecrets.map((text) => [text]))('leaves alone: %s', async (text) => {
    expect((await redactSecrets(text)).text).toBe(text)
  })

  it('finds a secret a metadata key names', async () => {
    const { value } = await redactFields({ metadata: { 'wifi password': 'Kx7#mPq2vL9w', build: '2026.11.23-rc.4' } })
    expect(value.metadata).toEqual({ 'wifi password': '[REDACTED:password-in-prose]', build: '2026.11.23-rc.4' })
  })
})
