import { execFileSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { gitObjectId } from '../../../src/git/object-id.js'
import { diffFiles, hashFolder } from '../../../src/sync/files.js'
import { makeWorkspace } from '../../helpers/workspace.js'

describe('gitObjectId', () => {
  test('is the id git gives the same content', () => {
    const content = 'title: x\n\n# Heading ü\n'
    const expected = execFileSync('git', ['hash-object', '--stdin'], { input: content, encoding: 'utf8' }).trim()
    expect(gitObjectId('blob', Buffer.from(content))).toBe(expected)
  })
})

describe('diffFiles', () => {
  test('sorts paths into added, updated, deleted and unchanged by hash', () => {
    const previous = { 'a.md': { hash: '1' }, 'b.md': { hash: '2' }, 'c.md': { hash: '3' } }
    const current = new Map([
      ['a.md', '1'],
      ['b.md', '22'],
      ['d.md', '4'],
    ])
    expect(diffFiles(previous, current)).toEqual({ added: ['d.md'], updated: ['b.md'], deleted: ['c.md'], unchanged: ['a.md'] })
  })
})

describe('hashFolder', () => {
  test('hashes knowledge files and skips the memory folder', async () => {
    const workspace = await makeWorkspace({ 'k/adr/a.md': 'A', 'k/README.md': 'r', 'k/memory/m.md': 'memory' })
    try {
      const hashes = await hashFolder(await loadWorkspace({ cwd: workspace.root, env: {} }), `${workspace.root}/k`)
      expect([...hashes.keys()]).toEqual(['adr/a.md'])
      expect(hashes.get('adr/a.md')).toBe(gitObjectId('blob', Buffer.from('A')))
    } finally {
      await workspace.cleanup()
    }
  })
})
