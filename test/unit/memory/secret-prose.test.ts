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

  // Secrets shaped like the code, words and verbs that proseNotSecrets leaves alone (an independent review's cases).
  it.each([
    ['The secret is Secret.Key99', 'Secret.Key99'],
    ['The password is Admin.Pass2024', 'Admin.Pass2024'],
    ['The license key is ABCD1234.EFGH5678', 'ABCD1234.EFGH5678'],
    ['Our staging token is Staging.Token2024', 'Staging.Token2024'],
    ['The password is Summer(fun)2024', 'Summer(fun)2024'],
    ['The admin secret is Admin(root)Kx7#mPq2vL9w', 'Admin(root)Kx7#mPq2vL9w'],
    ['The password is Correct-Horse-Battery-Staple', 'Correct-Horse-Battery-Staple'],
    ['Bitwarden passphrase for the NAS: Unmixed-Shelf-Crudely-Gloomy', 'Unmixed-Shelf-Crudely-Gloomy'],
    ['The signing secret is Tiger/Lily/Moon/River', 'Tiger/Lily/Moon/River'],
    ['the credentials are admin/SuperSecret', 'admin/SuperSecret'],
    ['The guest wifi pass in the lobby is Kx7#mPq2vL9w', 'Kx7#mPq2vL9w'],
    ['wifi pass and user: Kx7#mPq2vL9w', 'Kx7#mPq2vL9w'],
    ["The password is McDonald's", "McDonald's"],
  ])('redacts: %s', async (text, secret) => {
    expect((await redactSecrets(text)).text).not.toContain(secret)
  })

  it('finds a secret a metadata key names', async () => {
    const { value } = await redactFields({ metadata: { 'wifi password': 'Kx7#mPq2vL9w', build: '2026.11.23-rc.4' } })
    expect(value.metadata).toEqual({ 'wifi password': '[REDACTED:password-in-prose]', build: '2026.11.23-rc.4' })
  })
})
