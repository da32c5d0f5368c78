import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { diffIndex, encodeRecord, recordPieces } from '../../../src/constraints/cache/index-records.js'
import type { FileFacts } from '../../../src/constraints/pipeline/contribution.js'
import { readStagedEntries } from '../../../src/git/git-index.js'

let repo: string

function git(...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd: repo, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
}

const index = async (): Promise<Buffer> => readFile(join(repo, '.git', 'index'))

/** Facts that say which path they are of, so a record carried over from the wrong entry shows. */
const factsOf = (path: string): FileFacts => ({ kind: 'scanned', hidden: path.length, required: [], imports: [path.charCodeAt(0)], fileWaiversUsed: [] })

async function recordsOf(bytes: Buffer): Promise<Buffer> {
  return Buffer.concat(readStagedEntries(bytes).map((entry) => encodeRecord({ gitPath: entry.path, oid: entry.oid, mode: entry.mode }, factsOf(entry.path))))
}

beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'mk-index-records-'))
  git('init', '-q')
  await mkdir(join(repo, 'c'))
  for (const name of ['a.ts', 'b.ts', 'c/d.ts', 'c/e.ts', 'é.ts', 'z.ts']) await writeFile(join(repo, name), `${name}\n`)
  git('add', 'a.ts', 'b.ts', 'c/d.ts', 'c/e.ts', 'é.ts', 'z.ts')
  git('commit', '-qm', 'start')
})
afterEach(async () => rm(repo, { recursive: true, force: true }))

describe('index records', () => {
  it('an unchanged index differs in nothing, and its records are carried over whole', async () => {
    const bytes = await index()
    const records = await recordsOf(bytes)
    const diff = diffIndex(bytes, records, 100)
    expect(diff).toMatchObject({ changed: [], removed: [] })
    expect(Buffer.concat(recordPieces(diff?.pieces ?? [], () => factsOf('?')))).toEqual(records)
  })

  it('finds staged edits, deletions, renames, new files and mode changes, and rebuilds the records of the new index', async () => {
    const before = await recordsOf(await index())
    await writeFile(join(repo, 'b.ts'), 'edited\n')
    await writeFile(join(repo, 'new.ts'), 'new\n')
    git('add', 'b.ts', 'new.ts')
    git('rm', '-q', 'c/d.ts')
    git('mv', 'é.ts', 'f.ts')
    git('update-index', '--chmod=+x', 'z.ts')
    const after = await index()
    const diff = diffIndex(after, before, 100)
    expect(diff?.changed.map((entry) => entry.gitPath).sort()).toEqual(['b.ts', 'f.ts', 'new.ts', 'z.ts'])
    expect(diff?.removed.map((entry) => entry.gitPath).sort()).toEqual(['b.ts', 'c/d.ts', 'z.ts', 'é.ts'])
    expect(diff?.removed.find((entry) => entry.gitPath === 'é.ts')?.facts).toEqual(factsOf('é.ts'))
    const rebuilt = Buffer.concat(recordPieces(diff?.pieces ?? [], (entry) => factsOf(entry.gitPath)))
    expect(rebuilt).toEqual(await recordsOf(after))
  })

  it('gives up when more entries changed than the limit', async () => {
    const before = await recordsOf(await index())
    git('rm', '-q', 'a.ts', 'b.ts', 'z.ts')
    expect(diffIndex(await index(), before, 2)).toBeUndefined()
    expect(diffIndex(await index(), before, 3)?.removed).toHaveLength(3)
  })

  it('throws on records that do not decode, for the caller to evaluate everything', async () => {
    const bytes = await index()
    const damaged = await recordsOf(bytes)
    damaged.write('{', damaged.length - 3)
    // The last record is é.ts's: git orders paths by their bytes.
    git('rm', '-q', 'é.ts')
    const after = await index()
    expect(() => diffIndex(after, damaged, 100)).toThrow()
  })
})
