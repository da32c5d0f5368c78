import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import git from 'isomorphic-git'
import { afterEach, describe, expect, it } from 'vitest'
import { commitPaths } from '../../../src/git/commit.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

const gitCli = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' })

/** What git itself says of the repository: consistent objects, a clean status against the work tree. */
function expectHealthy(dir: string): void {
  gitCli(dir, 'fsck', '--strict', '--no-dangling')
  expect(gitCli(dir, 'status', '--porcelain')).toBe('')
}

describe('commitPaths', () => {
  it('creates the repository, commits additions and removals, and leaves git status clean', async () => {
    workspace = await makeWorkspace({ 'memory/user/a.md': 'a\n', 'memory/user/b.md': 'b\n', 'memory/team/c.md': 'c\n' })
    const dir = workspace.root
    await commitPaths(dir, { add: ['memory/user/a.md', 'memory/user/b.md', 'memory/team/c.md'], remove: [], message: 'add a, b and c' })
    await rm(join(dir, 'memory/user/a.md'))
    await writeFile(join(dir, 'memory/user/b.md'), 'b2\n')
    const oid = await commitPaths(dir, { add: ['memory/user/b.md'], remove: ['memory/user/a.md'], message: 'delete a, edit b' })
    expect(gitCli(dir, 'log', '--format=%s')).toBe('delete a, edit b\nadd a, b and c\n')
    expect(gitCli(dir, 'rev-parse', 'HEAD').trim()).toBe(oid)
    expect(gitCli(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('memory/team/c.md\nmemory/user/b.md\n')
    expect(gitCli(dir, 'show', 'HEAD:memory/user/b.md')).toBe('b2\n')
    expect(gitCli(dir, 'log', '-1', '--format=%an <%ae>')).toBe('mk <mk@localhost>\n')
    expectHealthy(dir)
  })

  it('orders tree entries as git does when a file name sorts between a folder and its contents', async () => {
    workspace = await makeWorkspace({ 'a.b': '1\n', 'a/x': '2\n', 'a-c': '3\n', a0: '4\n' })
    const dir = workspace.root
    await commitPaths(dir, { add: ['a.b', 'a/x', 'a-c', 'a0'], remove: [], message: 'names' })
    expect(gitCli(dir, 'ls-tree', '--name-only', 'HEAD')).toBe('a-c\na.b\na\na0\n')
    expectHealthy(dir)
  })

  it('after many writes, every commit has the tree git computes from the same index', async () => {
    // Issue 27: trees are written into one buffer each and loose objects at git's own compression
    // level; git must read every object and agree on every tree id.
    workspace = await makeWorkspace({})
    const dir = workspace.root
    const names = ['a.md', 'a-b.md', 'a0.md', 'é.md', 'z.md']
    for (let round = 0; round < 24; round++) {
      const folder = ['memory/user', 'memory/agents/ana', 'memory/user/a', 'memory'][round % 4] as string
      const path = `${folder}/${names[round % names.length]}`
      await fs.promises.mkdir(join(dir, folder), { recursive: true })
      await writeFile(join(dir, path), `round ${round}\n`)
      const removed = round % 5 === 4 ? ['memory/user/a.md'].filter((file) => fs.existsSync(join(dir, file))) : []
      for (const file of removed) await rm(join(dir, file))
      const oid = await commitPaths(dir, { add: [path], remove: removed, message: `round ${round}` })
      expect(gitCli(dir, 'rev-parse', `${oid}^{tree}`)).toBe(gitCli(dir, 'write-tree'))
    }
    expect(gitCli(dir, 'rev-list', '--count', 'HEAD').trim()).toBe('24')
    expectHealthy(dir)
  })

  it('continues a history isomorphic-git wrote, and one that git gc packed', async () => {
    workspace = await makeWorkspace({ 'user/a.md': 'a\n', 'user/b.md': 'b\n', 'user/c.md': 'c\n' })
    const dir = workspace.root
    await git.init({ fs, dir, defaultBranch: 'main' })
    await git.add({ fs, dir, filepath: 'user/a.md' })
    await git.commit({ fs, dir, message: 'add a', author: { name: 'mk', email: 'mk@localhost' } })
    await commitPaths(dir, { add: ['user/b.md'], remove: [], message: 'add b' })
    gitCli(dir, 'gc', '--quiet')
    expect(fs.existsSync(join(dir, '.git/refs/heads/main'))).toBe(false)
    await commitPaths(dir, { add: ['user/c.md'], remove: [], message: 'add c' })
    expect(gitCli(dir, 'log', '--format=%s')).toBe('add c\nadd b\nadd a\n')
    expect(gitCli(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('user/a.md\nuser/b.md\nuser/c.md\n')
    expectHealthy(dir)
  })

  it('hands a repository it does not handle (a detached HEAD) to isomorphic-git', async () => {
    workspace = await makeWorkspace({ 'user/a.md': 'a\n', 'user/b.md': 'b\n' })
    const dir = workspace.root
    const first = await commitPaths(dir, { add: ['user/a.md'], remove: [], message: 'add a' })
    await writeFile(join(dir, '.git/HEAD'), `${first}\n`)
    const second = await commitPaths(dir, { add: ['user/b.md'], remove: [], message: 'add b' })
    expect(gitCli(dir, 'rev-parse', 'HEAD').trim()).toBe(second)
    expect(gitCli(dir, 'log', '--format=%s', second)).toBe('add b\nadd a\n')
  })
})
