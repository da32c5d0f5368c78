import { execFileSync } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { similarityScore } from '../../../src/git/similarity.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace

const git = (...args: string[]): string =>
  execFileSync('git', ['-C', workspace.root, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', ...args], { encoding: 'utf8' })

/** The similarity git itself reports for renaming a file with `before` into one with `after`, in percent. */
async function gitSimilarity(before: string, after: string): Promise<number> {
  await writeFile(join(workspace.root, 'before.txt'), before)
  git('add', '-A')
  git('commit', '-q', '-m', 'before')
  await rm(join(workspace.root, 'before.txt'))
  await writeFile(join(workspace.root, 'after.txt'), after)
  git('add', '-A')
  git('commit', '-q', '-m', 'after')
  const status = git('diff', '-M1%', '--name-status', 'HEAD~1', 'HEAD')
  git('rm', '-q', 'after.txt')
  git('commit', '-q', '-m', 'clear')
  return Number(/^R(\d+)/.exec(status)?.[1] ?? 0)
}

const lines = (count: number, line: (index: number) => string): string => Array.from({ length: count }, (_, index) => `${line(index)}\n`).join('')

beforeAll(async () => {
  workspace = await makeWorkspace()
  git('init', '-q', '-b', 'main')
})

afterAll(async () => workspace?.cleanup())

describe('similarityScore', () => {
  it.each([
    ['one line of twelve changed', lines(12, (n) => `Line ${n} of the decision.`), lines(12, (n) => `Line ${n === 0 ? 'zero' : n} of the decision.`)],
    ['half the lines changed', lines(10, (n) => `Old line ${n}`), lines(10, (n) => (n % 2 === 0 ? `Old line ${n}` : `New text ${n}`))],
    ['CRLF against LF', lines(8, (n) => `Same words ${n}`), lines(8, (n) => `Same words ${n}\r`)],
    ['lines longer than 64 bytes', lines(6, (n) => `${'x'.repeat(100)} ${n}`), lines(6, (n) => `${'x'.repeat(100)} ${n === 3 ? 'changed' : n}`)],
    ['a file grown by a third', lines(9, (n) => `Kept ${n}`), lines(12, (n) => `Kept ${n}`)],
  ])('scores %s as git does', async (_, before, after) => {
    const score = similarityScore(Buffer.from(before), Buffer.from(after))
    const percent = await gitSimilarity(before, after)
    expect(percent).toBeGreaterThan(0)
    expect(Math.floor((score * 100) / 60000)).toBe(percent)
  })
})
