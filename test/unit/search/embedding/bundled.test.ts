import { describe, expect, it } from 'vitest'
import { bundledMaxChars, createBundledProvider, truncateForBundled } from '../../../../src/search/embedding/bundled.js'
import { createEmbeddingProvider } from '../../../../src/search/embedding/create.js'

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0)

describe('truncateForBundled', () => {
  it('keeps short texts, trimmed', () => {
    expect(truncateForBundled('  We store everything in Postgres \n')).toBe('We store everything in Postgres')
  })

  it('cuts long texts at a word boundary within the limit', () => {
    const text = 'postgres '.repeat(100)
    const cut = truncateForBundled(text)
    expect(cut.length).toBeLessThanOrEqual(bundledMaxChars)
    expect(cut.length).toBeGreaterThan(bundledMaxChars - 'postgres '.length)
    expect(cut.endsWith('postgres')).toBe(true)
  })

  it('cuts a long text without spaces at the limit', () => {
    expect(truncateForBundled('x'.repeat(5000))).toHaveLength(bundledMaxChars)
  })

  it('never hands the model an empty text', () => {
    expect(truncateForBundled('   ')).toBe(' ')
  })
})

describe('bundled embedding provider (Universal Sentence Encoder Lite)', () => {
  it('embeds by meaning, offline: 512-d unit vectors', async () => {
    const provider = await createEmbeddingProvider(
      { provider: 'bundled', allowDownload: false, timeoutMs: 30_000, hubUrl: 'https://huggingface.co' },
      { workspaceRoot: '/nonexistent' },
    )
    expect(provider?.modelId).toBe('bundled:universal-sentence-encoder-lite@1')
    const [query, postgres, weather, empty] =
      (await provider?.embed(['what database do we use', 'We store everything in Postgres', 'It will rain tomorrow afternoon', ''], 'document')) ?? []
    await provider?.close?.()
    if (query === undefined || postgres === undefined || weather === undefined || empty === undefined) throw new Error('missing vectors')
    expect(query).toHaveLength(512)
    expect(Math.hypot(...query)).toBeCloseTo(1, 5)
    expect(cosine(query, postgres)).toBeGreaterThan(cosine(query, weather) + 0.1)
  })

  it('gives each text its own vector when many are embedded at once on the workers, in the order asked', async () => {
    const provider = createBundledProvider()
    const texts = Array.from({ length: 40 }, (_, n) => `${'note '.repeat(n % 7)}fact ${n}: the ${n % 2 === 0 ? 'staging database' : 'weekly report'} ${n}`)
    const together = await provider.embed(texts, 'document')
    const alone = await Promise.all([0, 17, 39].map(async (n) => (await provider.embed([texts[n] as string], 'query'))[0] as Float32Array))
    await provider.close?.()
    expect(together).toHaveLength(40)
    ;[0, 17, 39].forEach((n, position) => expect(cosine(together[n] as Float32Array, alone[position] as Float32Array)).toBeGreaterThan(0.999))
  }, 60_000)

  it('answers two bulk embeddings asked at once (as embedPending overlaps its windows) each with its own vectors, in order', async () => {
    const provider = createBundledProvider()
    const first = Array.from(
      { length: 40 },
      (_, n) => `window one, fact ${n}: the ${n % 2 === 0 ? 'staging database' : 'weekly report'} ${'again '.repeat(n % 5)}`,
    )
    const second = Array.from(
      { length: 40 },
      (_, n) => `window two, fact ${n}: ${n % 3 === 0 ? 'deploys on tuesday' : 'billing owns invoices'} ${'note '.repeat(n % 6)}`,
    )
    const [firstVectors, secondVectors] = await Promise.all([provider.embed(first, 'document'), provider.embed(second, 'document')])
    const alone = async (text: string): Promise<Float32Array> => (await provider.embed([text], 'query'))[0] as Float32Array
    const checks = [
      [firstVectors[3], await alone(first[3] as string)],
      [firstVectors[38], await alone(first[38] as string)],
      [secondVectors[0], await alone(second[0] as string)],
      [secondVectors[29], await alone(second[29] as string)],
    ] as const
    await provider.close?.()
    expect(firstVectors).toHaveLength(40)
    expect(secondVectors).toHaveLength(40)
    for (const [together, single] of checks) expect(cosine(together as Float32Array, single)).toBeGreaterThan(0.999)
  }, 60_000)

  it('shares one model among the providers of a process, and closing one leaves the others working', async () => {
    const [tenantA, tenantB] = [createBundledProvider(), createBundledProvider()]
    const [first] = await tenantA.embed(['the staging database is read-only'], 'query')
    await tenantB.embed(['who owns billing'], 'query')
    await tenantA.close?.()
    const [again] = await tenantB.embed(['the staging database is read-only'], 'query')
    await tenantB.close?.()
    // Closing the last user frees the model; a new provider loads it again.
    const later = createBundledProvider()
    const [reloaded] = await later.embed(['the staging database is read-only'], 'query')
    await later.close?.()
    expect(cosine(first as Float32Array, again as Float32Array)).toBeGreaterThan(0.999)
    expect(cosine(first as Float32Array, reloaded as Float32Array)).toBeGreaterThan(0.999)
  }, 60_000)

  it('returns no vectors for no texts', async () => {
    const provider = await createEmbeddingProvider(
      { provider: 'bundled', allowDownload: false, timeoutMs: 30_000, hubUrl: 'https://huggingface.co' },
      { workspaceRoot: '/nonexistent' },
    )
    expect(await provider?.embed([], 'query')).toEqual([])
  })

  it('is absent for provider none: full text only', async () => {
    expect(
      await createEmbeddingProvider(
        { provider: 'none', allowDownload: false, timeoutMs: 30_000, hubUrl: 'https://huggingface.co' },
        { workspaceRoot: '/nonexistent' },
      ),
    ).toBeUndefined()
  })
})
