import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MkError } from '../../../src/errors.js'
import { ScanCache, scanCacheKey } from '../../../src/constraints/cache/scan-cache.js'
import { statSignature, wallClockNs } from '../../../src/fs/stat-signature.js'
import { collectTree } from '../../../src/constraints/input/collect-tree.js'
import { IgnoreRules } from '../../../src/constraints/input/ignore-rules.js'
import type { CheckInput } from '../../../src/constraints/input/input.js'
import type { ScannedPattern, ScanPlan, ScanRequest } from '../../../src/constraints/scan/file-scan.js'
import { compilePattern } from '../../../src/constraints/scan/regex.js'
import { scanFiles } from '../../../src/constraints/scan/scan-files.js'
import { scanThreadSettings, startScanThreads } from '../../../src/constraints/scan/scan-threads.js'
import { createScanner } from '../../../src/constraints/scan/file-scan.js'

const pattern = (target: ScannedPattern['target'], source: string): ScannedPattern => ({ target, pattern: source, regex: compilePattern(source) })
const plan: ScanPlan = {
  patterns: [pattern('code', 'console\\.log\\('), pattern('code', '\\bTODO\\b'), pattern('import', 'mysql2?')],
  dependencyFields: ['dependencies'],
}
const singleThread = { threads: 0, fromFiles: 0 }
/** Scan threads for any number of files: the files here are few, so that the test stays quick. */
const withThreads = { threads: 2, fromFiles: 1 }

/** Source files of every kind a scan tells apart: hits, waivers, imports, a manifest, a binary and an oversized file. */
function writeWorkspace(root: string, files: number): void {
  for (let index = 0; index < files; index++) {
    const folder = join(root, 'src', `module${index % 7}`)
    mkdirSync(folder, { recursive: true })
    const lines = [`import db from '${index % 3 === 0 ? 'mysql2' : 'pg'}'`, `export const value${index} = ${index}`]
    if (index % 2 === 0) lines.push('console.log(value) // TODO tidy')
    if (index % 5 === 0) lines.push('// mk-ignore no-console -- kept for the demo', 'console.log("waived")')
    writeFileSync(join(folder, `file${index}.ts`), `${lines.join('\n')}\n`)
  }
  writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { mysql: '^2.0.0' } }, null, 2))
  writeFileSync(join(root, 'src', 'logo.ts'), Buffer.from([0x89, 0x50, 0x00, 0x01]))
  writeFileSync(join(root, 'src', 'huge.ts'), 'x'.repeat(1024 * 1024 + 10))
}

function requestsOf(input: CheckInput): ScanRequest[] {
  return input.paths.map((path) => ({ path, patterns: path.endsWith('.ts') ? [0, 1, 2] : [], manifest: path === 'package.json' }))
}

describe('scanning on threads', () => {
  let root: string
  let input: CheckInput
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'mk-scan-threads-'))
    writeWorkspace(root, 600)
    input = collectTree(root, new IgnoreRules(root, undefined, []))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('finds what one thread finds, in the same order, with most files scanned elsewhere', async () => {
    const requests = requestsOf(input)
    const alone = await scanFiles(input, requests, plan, undefined, singleThread)
    const shared = await scanFiles(input, requests, plan, undefined, withThreads)
    expect(alone.chunksByThreads).toBe(0)
    // 603 files are 5 chunks: the two threads take at least the two they are handed first.
    expect(shared.chunksByThreads).toBeGreaterThanOrEqual(2)
    expect([...shared.scans.keys()]).toEqual([...alone.scans.keys()])
    expect(shared.scans).toEqual(alone.scans)
    expect(shared.unscanned).toEqual(
      new Map([
        ['src/huge.ts', 'too-large'],
        ['src/logo.ts', 'binary'],
      ]),
    )
    expect(shared.unscanned).toEqual(alone.unscanned)
    const hits = [...shared.scans.values()].reduce((sum, scan) => sum + [...scan.hits.values()].reduce((count, list) => count + list.length, 0), 0)
    expect(hits).toBeGreaterThan(600)
    // Paths under the same scopes keep sharing one pattern list, as the scan cache expects.
    expect(shared.scans.get('src/module1/file1.ts')?.patterns).toBe(requests.find((request) => request.path === 'src/module1/file1.ts')?.patterns)
  })

  it('scans on its own thread what threads that stopped were given', async () => {
    const requests = requestsOf(input)
    const alone = await scanFiles(input, requests, plan, undefined, singleThread)
    const threads = startScanThreads({ root }, plan, createScanner(plan), 2)
    threads?.close()
    const shared = await threads?.scan(requests)
    expect(shared?.chunksByThreads).toBe(0)
    expect(shared?.results.map(({ result }) => result)).toEqual(
      requests.map((request) => (alone.unscanned.get(request.path) ?? alone.scans.get(request.path)) as unknown),
    )
  })

  it.each([
    ['one thread', singleThread],
    ['threads', withThreads],
  ])('on %s, stores each file under the identity a later check finds for it without reading it', async (_name, threading) => {
    // Files count as settled (see statSignature) only two seconds after their last change: this input's clock is set ahead instead.
    const statTime = wallClockNs() + 60_000_000_000n
    const settled: CheckInput = {
      ...input,
      disk: { root, statTime },
      identity: (path) => statSignature(lstatSync(join(root, path), { bigint: true }), statTime),
    }
    const requests = requestsOf(input)
    const cacheFolder = mkdtempSync(join(tmpdir(), 'mk-scan-threads-cache-'))
    try {
      const key = scanCacheKey(plan, 'test')
      const first = await scanFiles(settled, requests, plan, new ScanCache(cacheFolder, 'tree', key), threading)
      const later = new ScanCache(cacheFolder, 'tree', key)
      const found = requests.filter((request) => later.get(request, settled.identity?.(request.path) as string) !== undefined)
      expect(found.length).toBe(requests.length)
      expect((await scanFiles(settled, requests, plan, later, threading)).scans).toEqual(first.scans)
    } finally {
      rmSync(cacheFolder, { recursive: true, force: true })
    }
  })

  it('reports the first file it cannot read, as one thread does', async () => {
    const requests = requestsOf(input)
    requests.splice(400, 0, { path: 'src/deleted-while-checking.ts', patterns: [0], manifest: false })
    const failure = (threading: typeof singleThread) =>
      scanFiles(input, requests, plan, undefined, threading).then(
        () => undefined,
        (error: unknown) => error,
      )
    const [alone, shared] = [await failure(singleThread), await failure(withThreads)]
    expect(alone).toBeInstanceOf(MkError)
    expect((shared as MkError).message).toBe((alone as MkError).message)
    expect((alone as MkError).message).toContain('cannot read src/deleted-while-checking.ts (ENOENT)')
  })
})

describe('scan thread settings', () => {
  it('uses one thread fewer than the cores by default, from 20,000 files', () => {
    const settings = scanThreadSettings({})
    expect(settings.fromFiles).toBe(20_000)
    expect(settings.threads).toBeGreaterThanOrEqual(0)
    expect(settings.threads).toBeLessThanOrEqual(3)
    expect(scanThreadSettings({ MK_CHECK_THREADS: 'auto' })).toEqual(settings)
  })

  it('says what each variable takes', () => {
    expect(() => scanThreadSettings({ MK_CHECK_THREADS: 'x' })).toThrow('MK_CHECK_THREADS must be a whole number from 0 to 64 or "auto", not "x"')
    expect(() => scanThreadSettings({ MK_CHECK_THREADS_FROM: 'x' })).toThrow('MK_CHECK_THREADS_FROM must be a whole number or "auto", not "x"')
  })

  it('takes whole numbers from the environment', () => {
    expect(scanThreadSettings({ MK_CHECK_THREADS: '0', MK_CHECK_THREADS_FROM: '5000' })).toEqual({ threads: 0, fromFiles: 5000 })
  })

  it.each([
    ['MK_CHECK_THREADS', 'two'],
    ['MK_CHECK_THREADS', '-1'],
    ['MK_CHECK_THREADS', '65'],
    ['MK_CHECK_THREADS_FROM', '1e4'],
  ])('rejects %s=%s, naming the variable and what it takes', (variable, value) => {
    let thrown: unknown
    try {
      scanThreadSettings({ [variable]: value })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(MkError)
    expect((thrown as MkError).code).toBe('INVALID_INPUT')
    expect((thrown as MkError).message).toContain(`${variable} must be a whole number`)
    expect((thrown as MkError).message).toContain(`"${value}"`)
  })
})
