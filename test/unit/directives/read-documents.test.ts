import { writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readSourceDocuments } from '../../../src/directives/ingest/read-documents.js'
import { maxRulesFileBytes } from '../../../src/fs/read-capped.js'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mk-read-documents-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('readSourceDocuments caps what it reads', () => {
  it('refuses a rules file over the cap, naming its field, its path and the cap', async () => {
    writeFileSync(join(root, 'CLAUDE.md'), 'x'.repeat(maxRulesFileBytes + 1))
    await expect(readSourceDocuments(root, [{ path: 'CLAUDE.md' }])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'documents[0].path: CLAUDE.md is over 256 KiB, the most mk reads of a knowledge or rules file; split it into smaller files',
    })
  })

  it('holds text given inline to the same cap, in bytes', async () => {
    const content = 'é'.repeat(maxRulesFileBytes / 2 + 1)
    await expect(
      readSourceDocuments(root, [
        { path: 'AGENTS.md', content: 'ok' },
        { path: 'AGENTS.md', content },
      ]),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('documents[1].content: AGENTS.md is over 256 KiB') as string,
    })
    expect(await readSourceDocuments(root, [{ path: 'AGENTS.md', content: 'é'.repeat(maxRulesFileBytes / 2) }])).toHaveLength(1)
  })
})
