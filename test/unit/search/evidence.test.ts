import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { queryGroups } from '../../../src/search/query-groups.js'
import { openIndex, type SearchIndex } from '../../../src/search/search-index.js'
import type { IndexDocument } from '../../../src/search/types.js'

let dir: string
let index: SearchIndex
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-evidence-'))
  index = openIndex(join(dir, 'index.db'))
})
afterEach(async () => {
  index.close()
  await rm(dir, { recursive: true, force: true })
})

const memory = (id: string, content: string): IndexDocument => ({ id, kind: 'memory', layer: 'project', content, tags: [], updatedAt: 0 })
const filler = Array.from({ length: 40 }, (_, n) => memory(`f${n}`, `Service ${n} keeps its settings in config-${n}.toml`))

describe('query groups', () => {
  it('turns a category the query names into a group of its products that absorbs the category word', () => {
    const groups = queryGroups('which database stores the orders')
    expect(groups.map((group) => group.full.slice(0, 2))).toEqual([['stores'], ['orders'], ['postgres', 'postgresql']])
    expect(groups[2]?.partial).toEqual(['database'])
  })

  it('gives a word its synonyms, so k8s finds Kubernetes and kubernetes finds k8s', async () => {
    expect(queryGroups('k8s upgrades')[0]).toEqual({ full: ['kubernetes', 'k8s', 'kube'], partial: [] })
    index.upsert([...filler, memory('kube', 'Services are deployed to Kubernetes by Argo CD'), memory('short', 'The k8s nodes are upgraded monthly')])
    expect((await index.search({ text: 'k8s', mode: 'fulltext', limit: 5 })).map((hit) => hit.id).sort()).toEqual(['kube', 'short'])
  })

  it('matches category phrases of several words and leaves other queries as plain words', () => {
    expect(queryGroups('which message queue do we run').some((group) => group.full.includes('rabbitmq'))).toBe(true)
    expect(queryGroups('lunch at noon')).toEqual([
      { full: ['lunch'], partial: [] },
      { full: ['noon'], partial: [] },
    ])
  })
})

describe('text evidence (full-text scores on one scale)', () => {
  it('keeps a lone match on an incidental word weak and a match on every word strong', async () => {
    index.upsert([...filler, memory('deploy', 'Deploys are frozen on Fridays'), memory('incidental', 'The design system keeps its tokens in Figma')])
    const [best] = await index.search({ text: 'are deploys frozen on Fridays', mode: 'fulltext', limit: 5 })
    expect(best).toMatchObject({ id: 'deploy' })
    expect(best?.score).toBeGreaterThan(0.8)
    // Min-max scaling gave the only document sharing a word with the question 1.0.
    const weak = await index.search({ text: 'which system do we use for tracking time', mode: 'fulltext', limit: 5 })
    expect(weak.map((hit) => hit.id)).toEqual(['incidental'])
    expect(weak[0]?.score).toBeLessThan(0.4)
  })

  it('finds the product for a question that names only its category, above a memory that merely says the word', async () => {
    index.upsert([
      ...filler,
      memory('postgres', 'We store everything in Postgres 15'),
      memory('word', 'The biggest customers are on a dedicated database cluster'),
    ])
    const hits = await index.search({ text: 'what database do we use', mode: 'fulltext', limit: 5 })
    expect(hits[0]?.id).toBe('postgres')
  })

  it('gives nothing to a query no document shares a word with', async () => {
    index.upsert(filler)
    expect(await index.search({ text: 'flurb zanquil morpadex', mode: 'fulltext', limit: 5 })).toEqual([])
  })
})
