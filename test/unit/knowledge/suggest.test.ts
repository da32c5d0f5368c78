import { describe, expect, it } from 'vitest'
import { nearestIds } from '../../../src/knowledge/suggest.js'

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
