import { execFileSync } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { commitPaths } from '../../../src/git/commit.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

const gitCli = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' })

describe('commitPaths', () => {
  it('creates the repository, commits additions and removals, and leaves git status clean', async () => {
    workspace = await makeWorkspace({ 'memory/user/a.md': 'a\n', 'memory/user/b.md': 'b\n' })
    const dir = workspace.root
    await commitPaths(dir, { add: ['memory/user/a.md', 'memory/user/b.md'], remove: [], message: 'add a and b' })
    await rm(join(dir, 'memory/user/a.md'))
    await writeFile(join(dir, 'memory/user/b.md'), 'b2\n')
    const oid = await commitPaths(dir, { add: ['memory/user/b.md'], remove: ['memory/user/a.md'], message: 'delete a, edit b' })
    expect(gitCli(dir, 'log', '--format=%s')).toBe('delete a, edit b\nadd a and b\n')
    expect(gitCli(dir, 'rev-parse', 'HEAD').trim()).toBe(oid)
    expect(gitCli(dir, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('memory/user/b.md\n')
    expect(gitCli(dir, 'status', '--porcelain')).toBe('')
    gitCli(dir, 'fsck', '--strict')
  })
})
