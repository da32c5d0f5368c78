import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadWorkspace } from '../../../src/config/load.js'
import { initWorkspace } from '../../../src/knowledge/init.js'
import { loadKnowledge } from '../../../src/knowledge/load.js'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mk-init-'))
})
afterEach(() => rm(root, { recursive: true, force: true }))

const nygard = (n: number, title: string) =>
  `# ${n}. ${title}\n\nDate: 2024-03-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWe will ${title.toLowerCase()}.\n\n## Consequences\n\nSome.\n`

describe('mk init', () => {
  // Issue 32: mk init in an adr-tools repository wrote an example ADR beside the team's own and read none of theirs.
  it('reads a repository’s existing decision folder where it is, instead of writing the example ADR', async () => {
    await mkdir(join(root, 'doc', 'adr'), { recursive: true })
    await writeFile(join(root, 'doc', 'adr', '0001-record-architecture-decisions.md'), nygard(1, 'Record architecture decisions'))
    await writeFile(join(root, 'doc', 'adr', '0002-use-kafka-for-events.md'), nygard(2, 'Use Kafka for events'))
    const result = await initWorkspace(root)
    expect(result.decisionFolders).toEqual(['doc/adr'])
    expect(result.created).toEqual(['.mkrc', 'knowledge/policies/policy-no-eval.md', '.gitignore'])
    expect(existsSync(join(root, 'knowledge', 'adr'))).toBe(false)
    const workspace = await loadWorkspace({ cwd: root, env: { MK_HOME: join(root, '.home') } })
    const { items } = await loadKnowledge(workspace)
    expect(items.map((item) => item.title).sort()).toEqual(['No eval in source code', 'Record architecture decisions', 'Use Kafka for events'])
    expect(await readFile(join(root, 'doc', 'adr', '0002-use-kafka-for-events.md'), 'utf8')).toBe(nygard(2, 'Use Kafka for events'))
  })

  it('writes the example ADR where there is no decision folder, and changes nothing the second time', async () => {
    await mkdir(join(root, 'docs', 'adr'), { recursive: true })
    await writeFile(join(root, 'docs', 'adr', 'README.md'), '# Decisions\n')
    const first = await initWorkspace(root)
    expect(first.decisionFolders).toEqual([])
    expect(first.created).toContain('knowledge/adr/adr-0001-use-postgresql.md')
    const second = await initWorkspace(root)
    expect(second.created).toEqual([])
    expect(second.decisionFolders).toEqual([])
  })
})
