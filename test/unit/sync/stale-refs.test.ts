import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unresolvedRefs } from '../../../src/sync/stale.js'

describe('refs that name a workspace file', () => {
  let root: string
  const noKnowledge = (): undefined => undefined
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mk-stale-refs-'))
    await writeFile(join(root, 'present.md'), 'here\n')
    await symlink('/etc', join(root, 'outside'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('are judged only inside the workspace, as written and on disk: nothing beyond a link out is reported on', () => {
    expect(unresolvedRefs(['present.md', 'gone.md', 'docs/gone.md'], noKnowledge, root)).toEqual([
      { ref: 'gone.md', missing: 'file' },
      { ref: 'docs/gone.md', missing: 'file' },
    ])
    // Whether /etc/passwd exists or /etc/no-such-file does not, the answer is the same: not judged.
    expect(unresolvedRefs(['outside/passwd', 'outside/no-such-file', '../elsewhere.md', '/etc/no-such-file'], noKnowledge, root)).toEqual([])
  })
})
