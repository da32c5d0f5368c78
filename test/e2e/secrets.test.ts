import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { secretFormats } from '../fixtures/secret-formats.js'

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** Every object in the history repository, decompressed, as git itself reads them. */
function historyObjects(home: string): string {
  const run = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: home, encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

// Issue 11.5 and 11.6: through content, tags, metadata and refs, no secret reaches the memory
// files, the search index or the $MK_HOME history; and none reaches a knowledge file's name.
describe('secrets never reach disk', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('keeps every format off the memory files, the index and the history', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const mk = (args: string[], input?: string): Promise<MkRun> =>
      runMk(args, {
        cwd: workspace.root,
        env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined },
        ...(input === undefined ? {} : { input }),
      })
    const formats = secretFormats()
    const layers = ['user', 'project']
    for (const [n, layer] of layers.entries()) {
      const input = {
        layer,
        content: `Credentials found in the ${layer} notes:\n${formats.map((format) => `- ${format.name}: ${format.text}`).join('\n')}`,
        // At most 32 tags of at most 64 characters each: the short secrets, shared out over the two memories.
        tags: formats
          .filter((format) => format.secret.length <= 64)
          .map((format) => format.secret)
          .slice(n * 32, n * 32 + 32),
        // At most 32 metadata keys a memory: the formats shared out the same way.
        metadata: Object.fromEntries(formats.map((format, i) => [`value${i}`, format.text]).slice(n * 32, n * 32 + 32)),
        refs: [`run-${n}`],
      }
      const added = await mk(['tools', 'call', 'memory_add', '--input', '-', '--json'], JSON.stringify(input))
      expect(added.exitCode, added.stdout + added.stderr).toBe(0)
      expect(parseJson<{ redactions: unknown[] }>(added).redactions.length).toBeGreaterThan(0)
    }
    expect((await mk(['memory', 'search', 'credentials', '--json'])).exitCode).toBe(0)

    const written = [...filesUnder(workspace.root), ...filesUnder(workspace.mkHome).filter((file) => !file.includes(`${join(workspace.mkHome, '.git')}`))]
    const everything = written.map((file) => readFileSync(file, 'latin1')).join('\n') + historyObjects(workspace.mkHome)
    const leaked = formats.filter((format) => everything.includes(format.secret)).map((format) => format.name)
    expect(leaked).toEqual([])
  })

  it('keeps a secret out of a knowledge file and its name', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/adr/.keep': '' }))
    const token = secretFormats().find((format) => format.name === 'GitHub personal access token')?.secret ?? ''
    const created = await runMk(['knowledge', 'new', 'adr', `Rotate ${token} quarterly`, '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(created.exitCode, created.stderr).toBe(0)
    const output = parseJson<{ path: string; redactions: { kind: string }[] }>(created)
    expect(output.path).not.toContain(token)
    expect(output.redactions).toHaveLength(1)
    expect(readFileSync(join(workspace.root, output.path), 'utf8')).not.toContain(token)
  })
})
