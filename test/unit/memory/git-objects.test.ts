import * as fs from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { commitFiles, initRepository } from '../../../src/memory/git-objects.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mk-git-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

async function read(oid: string, filepath: string): Promise<string> {
  const { blob } = await git.readBlob({ fs, dir, oid, filepath })
  return Buffer.from(blob).toString()
}

describe('commitFiles', () => {
  it('writes commits that git reads back: files in nested folders, removals, parents and messages', async () => {
    await initRepository(dir)
    const first = await commitFiles(dir, [{ path: 'memory/user/b.md', content: Buffer.from('bee\n') }], 'add b')
    const second = await commitFiles(
      dir,
      [
        { path: 'memory/user/a.md', content: Buffer.from('ay\n') },
        { path: 'memory/user-notes', content: Buffer.from('sorts after the folder\n') },
        { path: 'deleted/c.md', content: Buffer.from('see\n') },
      ],
      'add a and c',
    )
    const third = await commitFiles(dir, [{ path: 'memory/user/b.md', content: undefined }], 'delete b\n\npath: memory/user/b.md\n')
    const log = await git.log({ fs, dir })
    expect(log.map((entry) => [entry.oid, entry.commit.message.split('\n')[0], entry.commit.parent])).toEqual([
      [third, 'delete b', [second]],
      [second, 'add a and c', [first]],
      [first, 'add b', []],
    ])
    expect(await read(second, 'memory/user/b.md')).toBe('bee\n')
    expect(await read(third, 'memory/user/a.md')).toBe('ay\n')
    expect(await read(third, 'deleted/c.md')).toBe('see\n')
    expect(await read(third, 'memory/user-notes')).toBe('sorts after the folder\n')
    await expect(read(third, 'memory/user/b.md')).rejects.toThrow()
    const files = await git.listFiles({ fs, dir, ref: 'main' })
    expect([...files].sort()).toEqual(['deleted/c.md', 'memory/user-notes', 'memory/user/a.md'])
    // The staging index matches the last commit, so git status in MK_HOME is clean.
    const staged = await git.listFiles({ fs, dir })
    expect([...staged].sort()).toEqual(['deleted/c.md', 'memory/user-notes', 'memory/user/a.md'])
    for (const [path, content] of [['memory/user/a.md', 'ay\n'], ['memory/user-notes', 'sorts after the folder\n'], ['deleted/c.md', 'see\n']] as const) {
      fs.mkdirSync(join(dir, path, '..'), { recursive: true })
      fs.writeFileSync(join(dir, path), content)
    }
    const matrix = await git.statusMatrix({ fs, dir })
    expect(matrix.every(([, head, workdir, stage]) => head === 1 && workdir === 1 && stage === 1)).toBe(true)
  })
})
