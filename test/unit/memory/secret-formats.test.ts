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

// CI found these: random values that happened to contain a word from gitleaks' stopword list
// ("flat" inside an Azure key) were let through as if they were placeholders.
describe('stopwords never let a random value through', () => {
  const azureKey = 'XcSfmSAF66L8a5iIvJw+B/IpCOoIdlBzoh5WrefM9C179C609C+SzrsDUPWvl91nLKFD8fLAtLpjQy13ayiznA=='
  const apiKey = 'q8ZflatR2vXk7TnB4mWcYp9LsDhG3eJa'

  it('redacts an Azure storage account key whatever letters it holds', async () => {
    for (const key of [azureKey, '+RKdk084UWsdk72jGh5bzbH8k+qgZALghocxtY4PR61izqcjwRKOPzHxRzLwkowDdJt2a6dCsLNxbgchxGgGLw==']) {
      const text = `DefaultEndpointsProtocol=https;AccountName=acmefiles;AccountKey=${key};EndpointSuffix=core.windows.net`
      expect((await redactSecrets(text)).text).not.toContain(key)
    }
  })

  it('redacts a generic key whose random value contains a stopword', async () => {
    expect((await redactSecrets(`api_key=${apiKey}`)).text).not.toContain(apiKey)
  })

  it('redacts a Vault token whose first 24 characters are letters', async () => {
    const token = 'hvs.QwErTyUiOpAsDfGhJkLzXcVb' + 'x7_K-9mP2qR4sT6uV8wY0zA1bC3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5m'
    expect((await redactSecrets(`the vault login gave ${token} for now`)).text).not.toContain(token)
  })

  it('redacts a generic key made only of letters, as a random one sometimes is', async () => {
    const key = 'QwhTbRkzPmXcVnLaSdFgJyUeIoWqZxCv'
    expect((await redactSecrets(`api_key=${key}`)).text).not.toContain(key)
    expect((await redactSecrets('api_key=ThisIsMyApiKeyPlaceholderValue')).text).toBe('api_key=ThisIsMyApiKeyPlaceholderValue')
  })

  it('redacts an AWS secret access key that starts and ends with / or +', async () => {
    for (const key of ['/NdzBDnqYOndw14m42QjRfS1gGdklIfyB3PVBvl/', '+AjQ8JAgBxApQns7E4yRtH1/1bzG29EZ2Ma1MZC+'])
      expect((await redactSecrets(`aws_secret_access_key = ${key}\n`)).text).not.toContain(key)
  })

  it('still leaves placeholders made of stopwords alone', async () => {
    for (const text of ['api_key=your_api_key_here', 'token: example-token-value', 'secret=changeme-placeholder'])
      expect((await redactSecrets(text)).text).toBe(text)
  })
})
