import { describe, expect, it } from 'vitest'
import { SignInFailures, defaultSignInBackoff } from '../../../src/hosts/http/sign-in-failures.js'

function clocked(): { failures: SignInFailures; advance: (ms: number) => void } {
  let now = 0
  return { failures: new SignInFailures(defaultSignInBackoff, () => now), advance: (ms) => (now += ms) }
}

describe('SignInFailures', () => {
  it('lets five wrong keys through, then makes the address wait longer after each one', () => {
    const { failures, advance } = clocked()
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(failures.waitSeconds('10.0.0.1')).toBeUndefined()
      failures.failed('10.0.0.1')
    }
    expect(failures.waitSeconds('10.0.0.1')).toBe(1)
    advance(1_000)
    expect(failures.waitSeconds('10.0.0.1')).toBeUndefined()
    failures.failed('10.0.0.1')
    expect(failures.waitSeconds('10.0.0.1')).toBe(2)
    for (let attempt = 0; attempt < 20; attempt++) failures.failed('10.0.0.1')
    expect(failures.waitSeconds('10.0.0.1')).toBe(300)
    // Another address is not slowed down.
    expect(failures.waitSeconds('10.0.0.2')).toBeUndefined()
  })

  it('clears an address on a right key, and forgets one idle for 15 minutes', () => {
    const { failures, advance } = clocked()
    for (let attempt = 0; attempt < 6; attempt++) failures.failed('a')
    failures.succeeded('a')
    expect(failures.waitSeconds('a')).toBeUndefined()
    for (let attempt = 0; attempt < 6; attempt++) failures.failed('b')
    advance(15 * 60_000 + 1)
    expect(failures.waitSeconds('b')).toBeUndefined()
    failures.failed('b')
    expect(failures.waitSeconds('b')).toBeUndefined()
  })

  it('remembers at most maxAddresses addresses, forgetting the oldest', () => {
    const failures = new SignInFailures({ ...defaultSignInBackoff, freeFailures: 1, maxAddresses: 2 }, () => 0)
    for (const address of ['a', 'b', 'c']) failures.failed(address)
    expect(failures.waitSeconds('a')).toBeUndefined()
    expect(failures.waitSeconds('c')).toBe(1)
  })
})
