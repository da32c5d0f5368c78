import { describe, expect, test } from 'vitest'
import { timeSince } from '../../../src/sync/status.js'

describe('timeSince', () => {
  const now = new Date('2026-03-02T12:00:00Z')
  test.each([
    [undefined, 'never'],
    ['2026-03-02T11:59:58Z', 'just now'],
    ['2026-03-02T11:59:30Z', '30 seconds ago'],
    ['2026-03-02T11:59:00Z', '1 minute ago'],
    ['2026-03-02T09:00:00Z', '3 hours ago'],
    ['2026-02-27T12:00:00Z', '3 days ago'],
  ])('%s -> %s', (iso, expected) => {
    expect(timeSince(iso, now)).toBe(expected)
  })
})
