import { describe, expect, it } from 'vitest'
import { rankFrom, type CandidateSource } from '../../../src/search/ranking.js'

const head = { id: 'm1', layer: 'project', source: 'project', dedupKey: 'm1' }

/** A source that notes when each kind of evidence is asked for, before it answers. */
function recordingSource(calls: string[], text: () => void = () => undefined): CandidateSource {
  return {
    text() {
      calls.push('text')
      text()
      return [{ rowid: 1, score: 0.5, head }]
    },
    vector() {
      calls.push('vector')
      return Promise.resolve([{ rowid: 1, score: 0.9 }])
    },
    heads: () => new Map([[1, head]]),
  }
}

describe('rankFrom', () => {
  it('asks for the vector evidence before the full text, so the question embeds on its thread while the text runs here', async () => {
    const calls: string[] = []
    const hits = await rankFrom(recordingSource(calls), { text: 'who owns billing', mode: 'hybrid', limit: 10 })
    expect(calls).toEqual(['vector', 'text'])
    expect(hits.map((hit) => hit.id)).toEqual(['m1'])
  })

  it('rejects with the full text failure when the text throws while the vectors are on their way', async () => {
    const calls: string[] = []
    const failing = recordingSource(calls, () => {
      throw new Error('database disk image is malformed')
    })
    await expect(rankFrom(failing, { text: 'who owns billing', mode: 'hybrid', limit: 10 })).rejects.toThrow('malformed')
  })

  it('asks for no vectors in full text mode and no text in vector mode', async () => {
    const fulltext: string[] = []
    await rankFrom(recordingSource(fulltext), { text: 'billing', mode: 'fulltext', limit: 10 })
    const vector: string[] = []
    await rankFrom(recordingSource(vector), { text: 'billing', mode: 'vector', limit: 10 })
    expect([fulltext, vector]).toEqual([['text'], ['vector']])
  })
})
