import { execFileSync } from 'node:child_process'
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileHistory, filesHistory } from '../../../src/git/history.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace
let repo: string
let clock = 0

function gitCli(dir: string, ...args: string[]): string {
  const date = `2024-03-01T10:00:${String(clock).padStart(2, '0')}Z`
  const identity = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' }
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, ...identity, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } })
}

/** Commits everything in the work tree, one second after the previous commit. */
function commit(dir: string, message: string): void {
  clock++
  gitCli(dir, 'add', '-A')
  gitCli(dir, 'commit', '-q', '--allow-empty', '-m', message)
}

async function write(path: string, content: string): Promise<void> {
  await mkdir(dirname(join(repo, path)), { recursive: true })
  await writeFile(join(repo, path), content)
}

/** What git itself lists for the file: the reference the history walk must match. */
function gitFollow(dir: string, path: string): string[] {
  return gitCli(dir, 'log', '--follow', '--format=%H', '--', path)
    .split('\n')
    .filter((line) => line !== '')
    .map((oid) => oid.slice(0, 7))
}

/** Each file's history, as fileHistory gives it, is the list git log --follow prints for it. */
async function expectGitsHistory(dir: string, files: readonly string[]): Promise<void> {
  for (const path of files) {
    const history = await fileHistory(join(dir, path))
    expect(
      history?.map((version) => version.version),
      path,
    ).toEqual(gitFollow(dir, path))
  }
}

const paths = ['notes/a-renamed.md', 'notes/b.md', 'notes/c.md', 'notes/top.md', 'notes/e-renumbered.md', 'notes/g.md', 'notes/d.md']

beforeAll(async () => {
  workspace = await makeWorkspace()
  repo = workspace.root
  gitCli(repo, 'init', '-q', '-b', 'main')
  await write('notes/a.md', 'a one\n')
  await write('notes/b.md', 'b one\n')
  await write('notes/c.md', 'c one\n')
  await write('top.md', 'top\n')
  await write('notes/e.md', Array.from({ length: 12 }, (_, line) => `Line ${line} of e, long enough to count.\n`).join(''))
  await write('notes/f.md', 'f, which g replaces\n')
  commit(repo, 'Start the notes')
  await write('notes/a.md', 'a two\n')
  commit(repo, 'Edit a')
  // A side branch edits a while main edits b; the merge brings a's edit in without changing anything itself.
  gitCli(repo, 'checkout', '-q', '-b', 'side')
  await write('notes/a.md', 'a from the side\n')
  commit(repo, 'Edit a on the side')
  gitCli(repo, 'checkout', '-q', 'main')
  await write('notes/b.md', 'b two\n')
  commit(repo, 'Edit b')
  clock++
  gitCli(repo, 'merge', '-q', '--no-edit', 'side')
  // Both branches edit c; the merge resolves the conflict with new text.
  gitCli(repo, 'checkout', '-q', '-b', 'side2')
  await write('notes/c.md', 'c from side2\n')
  commit(repo, 'Edit c on side2')
  gitCli(repo, 'checkout', '-q', 'main')
  await write('notes/c.md', 'c from main\n')
  commit(repo, 'Edit c on main')
  clock++
  try {
    gitCli(repo, 'merge', '-q', '--no-edit', 'side2')
  } catch {
    // The conflict is expected; it is resolved below.
  }
  await write('notes/c.md', 'c resolved\n')
  commit(repo, 'Merge side2, resolving c')
  await rm(join(repo, 'notes/b.md'))
  // g takes f's place with other text: git sees no rename, and g's history starts here.
  await rm(join(repo, 'notes/f.md'))
  await write('notes/g.md', 'g, nothing like f at all\n')
  commit(repo, 'Delete b')
  gitCli(repo, 'mv', 'notes/a.md', 'notes/a-renamed.md')
  commit(repo, 'Rename a')
  gitCli(repo, 'mv', 'top.md', 'notes/top.md')
  // Renamed with an edit, as an ADR renumbered with its heading: git's similarity follows it.
  gitCli(repo, 'mv', 'notes/e.md', 'notes/e-renumbered.md')
  await write('notes/e-renumbered.md', Array.from({ length: 12 }, (_, line) => `Line ${line === 0 ? 'zero' : line} of e, long enough to count.\n`).join(''))
  commit(repo, 'Move top into notes')
  await write('notes/a-renamed.md', 'a three\n')
  await chmod(join(repo, 'notes/c.md'), 0o755)
  commit(repo, 'Edit a, make c executable')
  commit(repo, 'Nothing changed')
  await write('notes/d.md', 'never committed\n')
})

afterAll(async () => workspace?.cleanup())

describe('fileHistory', () => {
  it('lists the commits git log --follow lists for each file: edits, a deletion, renames, merges', async () => {
    await expectGitsHistory(
      repo,
      paths.filter((path) => path !== 'notes/d.md'),
    )
    // The reference itself is what the scenario means to check.
    expect(gitFollow(repo, 'notes/a-renamed.md')).toHaveLength(5)
    expect(gitFollow(repo, 'notes/c.md')).toHaveLength(4)
    expect(gitFollow(repo, 'notes/e-renumbered.md')).toHaveLength(2)
    expect(gitFollow(repo, 'notes/g.md')).toHaveLength(1)
  })

  it('gives each version its author, time and message', async () => {
    const [newest] = (await fileHistory(join(repo, 'notes/a-renamed.md'))) ?? []
    expect(newest).toEqual({
      version: gitCli(repo, 'rev-parse', '--short=7', 'HEAD~1').trim(),
      timestamp: '2024-03-01T10:00:13.000Z',
      author: 'Ada',
      message: 'Edit a, make c executable',
    })
  })

  it('is empty for a file never committed, undefined outside a repository', async () => {
    expect(await fileHistory(join(repo, 'notes/d.md'))).toEqual([])
    expect(await fileHistory(join(dirname(repo), 'outside.md'))).toBeUndefined()
  })

  it('reads a linked work tree (.git is a file) as git does', async () => {
    const worktree = join(dirname(repo), 'linked')
    gitCli(repo, 'worktree', 'add', '-q', '-b', 'linked', worktree)
    await writeFile(join(worktree, 'notes/c.md'), 'c in the linked tree\n')
    commit(worktree, 'Edit c in the linked tree')
    const history = await fileHistory(join(worktree, 'notes/c.md'))
    expect(history?.map((version) => version.version)).toEqual(gitFollow(worktree, 'notes/c.md'))
    expect(history?.[0]?.message).toBe('Edit c in the linked tree')
  })

  it('reads a shallow clone as git does, its oldest commit as a root', async () => {
    const shallow = join(dirname(repo), 'shallow')
    execFileSync('git', ['clone', '-q', '--depth', '3', `file://${repo}`, shallow])
    await expectGitsHistory(shallow, ['notes/a-renamed.md', 'notes/c.md'])
  })
})

describe('fileHistory across folders', () => {
  it('follows a file moved from a sibling folder, with or without edits, as git log --follow does', async () => {
    const other = join(dirname(repo), 'moves')
    await mkdir(other)
    const put = async (path: string, content: string): Promise<void> => {
      await mkdir(dirname(join(other, path)), { recursive: true })
      await writeFile(join(other, path), content)
    }
    const lines = (name: string, changed = -1): string =>
      Array.from({ length: 12 }, (_, line) => `Line ${line === changed ? 'changed' : line} of ${name}, long enough to count.\n`).join('')
    gitCli(other, 'init', '-q', '-b', 'main')
    await put('docs/adr/a.md', lines('a'))
    await put('docs/adr/h.md', lines('h'))
    commit(other, 'Start')
    await put('docs/adr/a.md', lines('a', 3))
    commit(other, 'Edit a')
    // A copy in a sibling folder while the original stays, then the original moved beside it.
    await put('knowledge/adr/copy.md', lines('a', 3))
    commit(other, 'Copy a')
    gitCli(other, 'mv', 'docs/adr/a.md', 'knowledge/adr/moved.md')
    // Moved to a sibling folder and edited in the same commit, as an ADR folder reorganised.
    gitCli(other, 'mv', 'docs/adr/h.md', 'knowledge/adr/0002-h.md')
    await put('knowledge/adr/0002-h.md', lines('h', 0))
    commit(other, 'Move the ADRs')
    await expectGitsHistory(other, ['knowledge/adr/moved.md', 'knowledge/adr/0002-h.md'])
    // The reference itself is what the scenario means to check.
    expect(gitFollow(other, 'knowledge/adr/moved.md')).toHaveLength(3)
    expect(gitFollow(other, 'knowledge/adr/0002-h.md')).toHaveLength(2)
    // Where mk stops short of git: a copy of a file kept in another folder begins its own history (ADR 0039).
    expect(gitFollow(other, 'knowledge/adr/copy.md')).toHaveLength(3)
    expect(await fileHistory(join(other, 'knowledge/adr/copy.md'))).toHaveLength(1)
  })
})

describe('filesHistory', () => {
  it('gives every file what fileHistory gives it alone, from one walk', async () => {
    const absolute = [...paths.map((path) => join(repo, path)), join(dirname(repo), 'outside.md')]
    const history = await filesHistory(absolute)
    for (const path of absolute) expect(history.versions(path), path).toEqual(await fileHistory(path))
  })

  it('gives undefined for the files of a repository it cannot read, and still reads the others', async () => {
    const broken = join(dirname(repo), 'broken')
    await mkdir(join(broken, '.git', 'objects'), { recursive: true })
    await writeFile(join(broken, '.git', 'HEAD'), `${'1'.repeat(40)}\n`)
    const history = await filesHistory([join(broken, 'x.md'), join(repo, 'notes/b.md')])
    expect(history.versions(join(broken, 'x.md'))).toBeUndefined()
    expect(history.versions(join(repo, 'notes/b.md'))?.map((version) => version.version)).toEqual(gitFollow(repo, 'notes/b.md'))
    await expect(fileHistory(join(broken, 'x.md'))).rejects.toThrow()
  })

  it('gives the text at each commit that changed a file, newest first, deletions left out', async () => {
    const [renamed, deleted] = [join(repo, 'notes/a-renamed.md'), join(repo, 'notes/b.md')]
    const [uncommitted, outside] = [join(repo, 'notes/d.md'), join(dirname(repo), 'outside.md')]
    const history = await filesHistory([renamed, deleted, uncommitted, outside])
    expect((await history.texts(renamed, 3))?.map((version) => version.text)).toEqual(['a three\n', 'a from the side\n', 'a from the side\n'])
    expect((await history.texts(deleted, 10))?.map((version) => version.text)).toEqual(['b two\n', 'b one\n'])
    expect(await history.texts(uncommitted, 10)).toEqual([])
    expect(await history.texts(outside, 10)).toBeUndefined()
  })
})
