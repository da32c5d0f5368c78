import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readStagedEntries } from '../../../src/git/git-index.js'

let repo: string
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'mk-git-index-'))
  git('init', '-q', '-b', 'main')
  await writeFile(join(repo, 'a.txt'), 'first\n')
  git('add', 'a.txt')
  git('commit', '-q', '-m', 'first')
})
afterEach(async () => rm(repo, { recursive: true, force: true }))

function git(...args: string[]): string {
  const result = spawnSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  })
  return result.stdout
}

async function staged(): Promise<ReturnType<typeof readStagedEntries>> {
  return readStagedEntries(await readFile(join(repo, '.git', 'index')))
}

/** What git itself says is staged: `<mode> <oid> <stage>\t<path>`. */
function gitSays(): string[] {
  return git('ls-files', '--stage').trim().split('\n')
}

describe('readStagedEntries', () => {
  it('reads what git ls-files --stage lists, in version 2 and in version 3 (skip-worktree)', async () => {
    await writeFile(join(repo, 'b with space.txt'), 'second\n')
    await writeFile(join(repo, 'run.sh'), '#!/bin/sh\n')
    git('add', '.')
    git('update-index', '--chmod=+x', 'run.sh')
    const asText = (entries: Awaited<ReturnType<typeof staged>>) => entries.map((entry) => `${entry.mode.toString(8)} ${entry.oid} 0\t${entry.path}`)
    expect(asText(await staged())).toEqual(gitSays())
    git('update-index', '--skip-worktree', 'a.txt')
    expect((await readFile(join(repo, '.git', 'index'))).readUInt32BE(4)).toBe(3)
    expect(asText(await staged())).toEqual(gitSays())
  })

  it('leaves out a file added with git add -N, which has no content yet', async () => {
    await writeFile(join(repo, 'later.txt'), 'not yet\n')
    git('add', '-N', 'later.txt')
    expect((await staged()).map((entry) => entry.path)).toEqual(['a.txt'])
  })

  it('refuses what it cannot read faithfully instead of returning part of it', async () => {
    git('update-index', '--index-version', '4')
    await expect(staged()).rejects.toThrow(/index version 4 is not supported/)
    git('update-index', '--index-version', '2')
    git('update-index', '--split-index')
    await expect(staged()).rejects.toThrow(/split index/)
    git('update-index', '--no-split-index')
    expect(await staged()).toHaveLength(1)
  })

  it('refuses an index with unresolved merge conflicts', async () => {
    git('checkout', '-q', '-b', 'other')
    await writeFile(join(repo, 'a.txt'), 'other\n')
    git('commit', '-q', '-am', 'other')
    git('checkout', '-q', 'main')
    await writeFile(join(repo, 'a.txt'), 'main\n')
    git('commit', '-q', '-am', 'main')
    git('merge', '-q', 'other')
    await expect(staged()).rejects.toThrow(/a.txt has unresolved merge conflicts/)
  })
})
