import { describe, expect, it } from 'vitest'
import { redactFields, redactSecrets } from '../../../src/memory/redact.js'
import { notSecrets, secretFormats } from '../../fixtures/secret-formats.js'

// Issue 11.5: every format, with values made fresh on each run, is redacted.
describe('secret redaction', () => {
  const formats = secretFormats()

  it(`covers at least 50 formats`, () => {
    expect(formats.length).toBeGreaterThanOrEqual(50)
  })

  it.each(formats.map((format) => [format.name, format] as const))('redacts %s', async (_name, format) => {
    const redacted = await redactSecrets(`note for later: ${format.text}\n`)
    expect(redacted.text).not.toContain(format.secret)
    expect(redacted.text).toContain('[REDACTED:')
    expect(redacted.redactions.length).toBeGreaterThan(0)
  })

  it('leaves prose, ids, hashes and versions alone', async () => {
    for (const text of notSecrets) expect((await redactSecrets(text)).text).toBe(text)
  })

  // Issue 11.6: tags, metadata keys and values and refs go through the same pass as content.
  it('redacts every string of a record, keys included, and a secret wherever it recurs', async () => {
    const token = formats.find((format) => format.name === 'GitHub personal access token')?.secret ?? ''
    const stripe = formats.find((format) => format.name === 'Stripe live secret key')?.secret ?? ''
    const { value, redactions } = await redactFields({
      content: 'rotate the deploy token',
      tags: ['ci', token],
      metadata: { [stripe]: 'key as a key', owner: `token ${token}`, count: 3 },
      refs: [`adr-${token}`],
    })
    const written = JSON.stringify(value)
    expect(written).not.toContain(token)
    expect(written).not.toContain(stripe)
    expect(value.tags[0]).toBe('ci')
    expect(value.metadata.count).toBe(3)
    expect(redactions.reduce((sum, entry) => sum + entry.count, 0)).toBe(4)
  })
})
