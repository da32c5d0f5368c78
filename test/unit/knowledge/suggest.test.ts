import { describe, expect, it } from 'vitest'
import { idsWithPrefix, nearestIds } from '../../../src/knowledge/suggest.js'

describe('nearestIds', () => {
  const ids = ['adr-0001-use-postgresql', 'adr-0002-use-kafka', 'policy-no-eval']
  it('prefers ids that contain the wanted one', () => {
    expect(nearestIds('postgres', ids)).toEqual(['adr-0001-use-postgresql'])
  })
  it('finds typos by edit distance', () => {
    expect(nearestIds('policy-no-evl', ids)).toEqual(['policy-no-eval'])
  })
  it('suggests nothing for something unrelated', () => {
    expect(nearestIds('zzzzzzzzzzzz', ids)).toEqual([])
  })
})

describe('idsWithPrefix', () => {
  const ids = ['adr-0001-use-postgresql', 'adr-0002-use-kafka', 'adr-00021-kafka-topics', 'policy-no-eval']
  it('finds the one id a prefix starts', () => {
    expect(idsWithPrefix('adr-0001', ids)).toEqual(['adr-0001-use-postgresql'])
    expect(idsWithPrefix('policy', ids)).toEqual(['policy-no-eval'])
  })
  it('prefers the id where the prefix ends at a word boundary', () => {
    expect(idsWithPrefix('adr-0002', ids)).toEqual(['adr-0002-use-kafka'])
  })
  it('returns every candidate of an ambiguous prefix, and none of an unknown one', () => {
    expect(idsWithPrefix('adr-000', ids)).toEqual(['adr-0001-use-postgresql', 'adr-0002-use-kafka', 'adr-00021-kafka-topics'])
    expect(idsWithPrefix('spec', ids)).toEqual([])
  })
})
