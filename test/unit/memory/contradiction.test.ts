import { describe, expect, it } from 'vitest'
import { contradiction } from '../../../src/memory/consolidate.js'

describe('contradiction', () => {
  it('does not read the number of a label as a value: two numbered notes that say the same do not conflict', () => {
    expect(contradiction('Release note 1: the API is frozen', 'Release note 2: the API is frozen')).toBeUndefined()
    expect(contradiction('Note 2: deploys happen on Tuesdays', 'Note 1: deploys happen on Tuesdays')).toBeUndefined()
    expect(contradiction('Step 3 — run the migrations before the deploy', 'Step 4 — run the migrations before the deploy')).toBeUndefined()
    expect(contradiction('Issue #12: the cache is shared by every tenant', 'Issue #31: the cache is shared by every tenant')).toBeUndefined()
  })

  it('still flags different values for the same thing, with or without a label', () => {
    expect(contradiction('CI runners have 4 cores', 'CI runners have 8 cores')).toBe('different numbers')
    expect(contradiction('The session TTL is 5 minutes', 'The session TTL is 50 minutes')).toBe('different numbers')
    expect(contradiction('Note 1: runners have 4 cores', 'Note 2: runners have 8 cores')).toBe('different numbers')
    expect(contradiction('Node 18 is required', 'Node 20 is required')).toBe('different numbers')
    expect(contradiction('The step timeout is 3 minutes', 'The step timeout is 4 minutes')).toBe('different numbers')
  })
})
