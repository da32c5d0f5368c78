import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ScanCache, scanCacheKey } from '../../../src/constraints/cache/scan-cache.js'
import type { FileScan, ScanPlan, ScanRequest } from '../../../src/constraints/scan/file-scan.js'
import { compilePattern } from '../../../src/constraints/scan/regex.js'

const plan: ScanPlan = {
  patterns: [
    { target: 'code', pattern: 'console\\.log', regex: compilePattern('console\\.log') },
    { target: 'import', pattern: 'mysql2?', regex: compilePattern('mysql2?') },
  ],
  dependencyFields: ['dependencies'],
}
const key = scanCacheKey(plan, '1.0.0')

function request(path: string, patterns: number[] = [0, 1]): ScanRequest {
  return { path, patterns, manifest: false }
}

function scanOf(path: string, line: number): FileScan {
  return {
    path,
    patterns: [0, 1],
    hits: new Map([[0, [{ line, column: 3, lineHash: 'abcdef0123456789', subject: 'console.log("x")' }]]]),
    dependencies: [],
    waivers: [],
    overruns: new Map(),
  }
}

describe('ScanCache', () => {
  let directory: string
  const file = (): string => join(directory, 'staged.bin')
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'mk-scan-cache-'))
  })
  afterEach(() => rmSync(directory, { recursive: true, force: true }))

  it('gives back what a run stored, for the same content and request only', () => {
    const first = new ScanCache(directory, 'staged', key)
    first.set(request('a.ts'), 'blob 1', scanOf('a.ts', 4))
    first.set(request('b.bin'), 'blob 2', 'binary')
    first.save()

    const second = new ScanCache(directory, 'staged', key)
    expect(second.get(request('a.ts'), 'blob 1')).toEqual(scanOf('a.ts', 4))
    expect(second.get(request('b.bin'), 'blob 2')).toBe('binary')
    expect(second.get(request('a.ts'), 'blob 9')).toBeUndefined()
    expect(second.get(request('a.ts', [0]), 'blob 1')).toBeUndefined()
    expect(second.get({ ...request('a.ts'), manifest: true }, 'blob 1')).toBeUndefined()
    expect(readFileSync(join(directory, '.gitignore'), 'utf8')).toBe('*\n')
  })

  it('knows nothing stored under another key: another mk version or other patterns', () => {
    const first = new ScanCache(directory, 'staged', key)
    first.set(request('a.ts'), 'blob 1', scanOf('a.ts', 4))
    first.save()
    expect(new ScanCache(directory, 'staged', scanCacheKey(plan, '1.0.1')).get(request('a.ts'), 'blob 1')).toBeUndefined()
    const otherPatterns = { ...plan, patterns: [...plan.patterns].reverse() }
    expect(new ScanCache(directory, 'staged', scanCacheKey(otherPatterns, '1.0.0')).get(request('a.ts'), 'blob 1')).toBeUndefined()
    expect(new ScanCache(directory, 'staged', key).get(request('a.ts'), 'blob 1')).toEqual(scanOf('a.ts', 4))
  })

  it('appends later runs, the latest entry of a path winning', () => {
    const first = new ScanCache(directory, 'staged', key)
    for (let index = 0; index < 20; index++) first.set(request(`f${index}.ts`), `blob ${index}`, scanOf(`f${index}.ts`, index + 1))
    first.save()
    const written = statSync(file()).size

    const second = new ScanCache(directory, 'staged', key)
    for (let index = 0; index < 20; index++) second.get(request(`f${index}.ts`), `blob ${index}`)
    second.set(request('f3.ts'), 'blob changed', scanOf('f3.ts', 99))
    second.save()
    expect(statSync(file()).size).toBeGreaterThan(written)

    const third = new ScanCache(directory, 'staged', key)
    expect(third.get(request('f3.ts'), 'blob changed')).toEqual(scanOf('f3.ts', 99))
    expect(third.get(request('f3.ts'), 'blob 3')).toBeUndefined()
    expect(third.get(request('f4.ts'), 'blob 4')).toEqual(scanOf('f4.ts', 5))
  })

  it('ignores a truncated file from the torn frame on, and the next save rewrites it whole', () => {
    const first = new ScanCache(directory, 'staged', key)
    first.set(request('a.ts'), 'blob 1', scanOf('a.ts', 4))
    first.save()
    truncateSync(file(), statSync(file()).size - 5)

    const second = new ScanCache(directory, 'staged', key)
    expect(second.get(request('a.ts'), 'blob 1')).toBeUndefined()
    second.set(request('a.ts'), 'blob 1', scanOf('a.ts', 4))
    second.save()
    expect(new ScanCache(directory, 'staged', key).get(request('a.ts'), 'blob 1')).toEqual(scanOf('a.ts', 4))
  })

  it('ignores a frame whose bytes changed, and a file that is not a cache at all', () => {
    const first = new ScanCache(directory, 'staged', key)
    first.set(request('a.ts'), 'blob 1', scanOf('a.ts', 4))
    first.save()
    const bytes = readFileSync(file())
    const flipped = bytes.length - 10
    bytes[flipped] = (bytes[flipped] as number) ^ 0xff
    writeFileSync(file(), bytes)
    expect(new ScanCache(directory, 'staged', key).get(request('a.ts'), 'blob 1')).toBeUndefined()

    writeFileSync(file(), 'not a cache')
    expect(new ScanCache(directory, 'staged', key).get(request('a.ts'), 'blob 1')).toBeUndefined()
  })

  it('does not keep a scan that ran out of time: a quieter machine might finish it', () => {
    const first = new ScanCache(directory, 'staged', key)
    first.set(request('slow.ts'), 'blob 1', { ...scanOf('slow.ts', 1), hits: new Map(), overruns: new Map([[0, 'time']]) })
    first.set(request('many.ts'), 'blob 2', { ...scanOf('many.ts', 1), hits: new Map(), overruns: new Map([[0, 'matches']]) })
    first.save()
    const second = new ScanCache(directory, 'staged', key)
    expect(second.get(request('slow.ts'), 'blob 1')).toBeUndefined()
    expect(second.get(request('many.ts'), 'blob 2')).toEqual({ ...scanOf('many.ts', 1), hits: new Map(), overruns: new Map([[0, 'matches']]) })
  })

  it('drops the entries of paths no run looks up any more when it rewrites the file', () => {
    const first = new ScanCache(directory, 'staged', key)
    for (let index = 0; index < 8; index++) first.set(request(`f${index}.ts`), `blob ${index}`, 'binary')
    first.save()
    const second = new ScanCache(directory, 'staged', key)
    second.get(request('f0.ts'), 'blob 0')
    second.set(request('g.ts'), 'blob g', 'binary')
    second.save()
    const third = new ScanCache(directory, 'staged', key)
    expect(third.get(request('f0.ts'), 'blob 0')).toBe('binary')
    expect(third.get(request('g.ts'), 'blob g')).toBe('binary')
    expect(third.get(request('f5.ts'), 'blob 5')).toBeUndefined()
  })

  it('treats a cache it cannot read or write as empty, and the check goes on', () => {
    mkdirSync(file())
    const cache = new ScanCache(directory, 'staged', key)
    expect(cache.get(request('a.ts'), 'blob 1')).toBeUndefined()
    cache.set(request('a.ts'), 'blob 1', 'binary')
    expect(() => cache.save()).not.toThrow()
  })
})
