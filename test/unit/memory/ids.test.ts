import { afterEach, describe, expect, it, vi } from 'vitest'
import { isMemoryId, newMemoryId } from '../../../src/memory/ids.js'

describe('newMemoryId', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('makes distinct well-formed ids', () => {
    const ids = Array.from({ length: 100 }, () => newMemoryId())
    expect(ids.every(isMemoryId)).toBe(true)
    expect(new Set(ids).size).toBe(100)
  })

  // Web Crypto's first use costs a short command about 1 ms; node:crypto is loaded already.
  it('draws its randomness from node:crypto, never from globalThis.crypto', () => {
    vi.stubGlobal('crypto', {
      getRandomValues: () => {
        throw new Error('globalThis.crypto was used')
      },
    })
    expect(isMemoryId(newMemoryId())).toBe(true)
  })
})
