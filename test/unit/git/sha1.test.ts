import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import Sha1 from '../../../src/git/sha1.js'

const ShaJs = createRequire(import.meta.url)('sha.js/sha1.js') as new () => {
  update(data: string | Uint8Array, enc?: string): { digest(enc?: string): Buffer | string }
}

describe("Sha1 (the bundle's stand-in for sha.js/sha1.js)", () => {
  const inputs: (string | Uint8Array)[] = [
    '',
    'blob 3\0abc',
    new Uint8Array([0, 1, 2, 255]),
    Buffer.from('tree'),
    new Uint8Array(Buffer.from('xxhello worldxx')).subarray(2, 13),
  ]

  it('gives the same digests as sha.js for strings, buffers and typed-array views', () => {
    for (const input of inputs) {
      expect(new Sha1().update(input).digest('hex')).toBe(new ShaJs().update(input).digest('hex'))
      expect(Buffer.compare(new Sha1().update(input).digest(), new ShaJs().update(input).digest() as Buffer)).toBe(0)
    }
  })

  it('hashes incremental updates like one update', () => {
    expect(new Sha1().update('blob 5\0').update(Buffer.from('hello')).digest('hex')).toBe('b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0')
  })
})
