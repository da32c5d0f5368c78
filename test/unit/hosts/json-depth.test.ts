import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from '../../../src/hosts/http/json-depth.js'

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false)
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true)
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}"}`, 2)).toBe(false)
    expect(nestsDeeperThan(`{"a":"\\"${'{'.repeat(100)}"}`, 2)).toBe(false)
    expect(nestsDeeperThan(`[${'{"a":'.repeat(10)}1${'}'.repeat(10)}]`, 10)).toBe(true)
  })
})
