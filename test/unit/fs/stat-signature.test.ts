import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { racyWindowNs, statSignature, wallClockNs } from '../../../src/fs/stat-signature.js'

describe('statSignature', () => {
  it('is undefined for a file changed within the racy window, and changes with a same-size edit whose mtime was put back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mk-stat-signature-'))
    try {
      const file = join(dir, 'a.md')
      await writeFile(file, 'one')
      expect(statSignature(await stat(file, { bigint: true }), wallClockNs())).toBeUndefined()
      const old = new Date('2025-01-01T00:00:00Z')
      await utimes(file, old, old)
      // The change time moved when the mtime was set: seen from after the window, the file is settled.
      const later = wallClockNs() + racyWindowNs + 1_000_000_000n
      const before = statSignature(await stat(file, { bigint: true }), later)
      expect(before).toMatch(/^stat 3 /)
      // The kernel stamps times from a coarse clock (a few ms): a later tick, as any real edit is.
      await new Promise((resolve) => setTimeout(resolve, 50))
      await writeFile(file, 'two')
      await utimes(file, old, old)
      expect(statSignature(await stat(file, { bigint: true }), later + racyWindowNs)).not.toBe(before)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
