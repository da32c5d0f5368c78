import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

function lastCommit(home: string): { id: string; author: string } {
  const run = spawnSync('git', ['log', '-1', '--format=%H %an <%ae>'], { cwd: home, encoding: 'utf8' })
  const [id = '', ...author] = run.stdout.trim().split(' ')
  return { id, author: author.join(' ') }
}

// Issue 11.17: history names people, and every write returns its commit.
describe('the $MK_HOME history', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it("names the user's git identity and returns each commit", async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const userHome = join(workspace.mkHome, '..', 'user-home')
    mkdirSync(userHome, { recursive: true })
    writeFileSync(join(userHome, '.gitconfig'), '[core]\n\tname = not this\n[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n')
    const env = { MK_HOME: workspace.mkHome, HOME: userHome, XDG_CONFIG_HOME: undefined, GIT_AUTHOR_NAME: undefined, GIT_AUTHOR_EMAIL: undefined }
    const mk = (args: string[], extra: Record<string, string | undefined> = {}) => runMk(args, { cwd: workspace.root, env: { ...env, ...extra } })

    const added = parseJson<{ memoryId: string; commit: string }>(await mk(['memory', 'add', 'I prefer small pull requests', '--json']))
    expect(lastCommit(workspace.mkHome)).toEqual({ id: added.commit, author: 'Ada Lovelace <ada@example.com>' })

    const deleted = parseJson<{ commit: string }>(
      await mk(['memory', 'delete', added.memoryId, '--json'], { GIT_AUTHOR_NAME: 'Grace Hopper', GIT_AUTHOR_EMAIL: 'grace@example.com' }),
    )
    expect(lastCommit(workspace.mkHome)).toEqual({ id: deleted.commit, author: 'Grace Hopper <grace@example.com>' })

    const project = parseJson<{ commit?: string }>(await mk(['memory', 'add', 'Deploys freeze on Fridays', '--layer', 'project', '--json']))
    expect(project.commit).toBeUndefined()
  })
})
