import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectTree } from '../../../src/constraints/input/collect-tree.js'
import { IgnoreRules } from '../../../src/constraints/input/ignore-rules.js'

let root: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mk-ignore-rules-'))
  mkdirSync(join(root, '.git', 'info'), { recursive: true })
  writeFileSync(join(root, '.git', 'info', 'exclude'), 'local.txt\n')
  writeFileSync(join(root, '.gitignore'), 'dist/\n*.log\n!keep.log\n')
  mkdirSync(join(root, 'src', 'generated'), { recursive: true })
  writeFileSync(join(root, 'src', '.gitignore'), 'generated/\n')
  for (const file of ['src/a.ts', 'src/generated/b.ts', 'dist/c.js', 'debug.log', 'keep.log', 'local.txt', 'vendor/d.js', 'README.md']) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), 'x\n')
  }
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('ignore rules', () => {
  it('issue 27: answer the same after forgetting the answers of a walk', () => {
    const rules = new IgnoreRules(root, root, ['vendor/**'])
    const walked = collectTree(root, rules).paths
    expect(walked).toEqual(['.gitignore', 'README.md', 'keep.log', 'src/.gitignore', 'src/a.ts'])
    // collectTree forgot its answers; asking again gives the same ones, from the same rules.
    const asked = ['src/a.ts', 'src/generated/b.ts', 'dist/c.js', 'debug.log', 'keep.log', 'local.txt', 'vendor/d.js', 'README.md']
    const before = asked.map((path) => rules.ignores(path, false))
    rules.forgetAnswers()
    expect(asked.map((path) => rules.ignores(path, false))).toEqual(before)
    expect(before).toEqual([false, true, true, true, false, true, true, false])
    expect(rules.configuredIgnores('vendor/d.js')).toBe(true)
  })
})
