import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// Issue 11.11: data (memory content, knowledge titles from a synced remote) must not drive the terminal.
const hostile = [
  '\u001b]0;owned title\u0007', // OSC: sets the window title
  '\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\', // OSC 8 hyperlink
  '\u001b[2J\u001b[H', // CSI: clear the screen, cursor home
  '\u001bPq#0;2;0;0;0\u001b\\', // DCS (sixel)
  '\u009b31m', // 8-bit CSI
  'a\rb\bc\u0007', // carriage return, backspace, bell
  '\u202eevil\u202c \u2066iso\u2069', // bidi override and isolate
].join(' ')

/** Whatever could move the cursor, recolour, retitle or reorder what the terminal shows. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlSequence = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

let ws: TempWorkspace
let mk: (args: string[]) => Promise<MkRun>

beforeEach(async () => {
  ws = await makeWorkspace({
    '.mkrc': 'search:\n  embedding:\n    provider: none\n',
    'knowledge/adr/adr-0001-hostile.md': `---\ntitle: "Hostile \\e[31mred\\e[0m \\e]0;pwned\\a title \\u202Egnp.exe"\nstatus: accepted\ntype: adr\n---\n\n# Hostile\n\nBody ${hostile} postgres\n`,
  })
  mk = (args) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
})
afterEach(() => ws.cleanup())

function expectSafe(run: MkRun): void {
  expect(run.exitCode, run.stderr).toBe(0)
  expect(run.stdout).not.toMatch(controlSequence)
  expect(run.stderr).not.toMatch(controlSequence)
}

describe('terminal escape sequences in data (issue 11.11)', () => {
  it('never reach the terminal from memory list, show and search, even with NO_COLOR', async () => {
    const added = await mk(['memory', 'add', `postgres ${hostile}`, '--json'])
    expect(added.exitCode, added.stderr).toBe(0)
    const { memoryId } = parseJson<{ memoryId: string }>(added)
    for (const args of [
      ['memory', 'list'],
      ['memory', 'show', memoryId],
      ['memory', 'search', 'postgres'],
    ]) {
      const run = await mk(args)
      expectSafe(run)
      expect(run.stdout).toContain('postgres')
    }
  })

  it('never reach the terminal from knowledge list, show and query', async () => {
    for (const args of [
      ['knowledge', 'list'],
      ['knowledge', 'show', 'adr-0001-hostile'],
      ['knowledge', 'query', 'postgres'],
    ]) {
      const run = await mk(args)
      expectSafe(run)
      expect(run.stdout).toContain('Hostile')
    }
    expect((await mk(['knowledge', 'show', 'adr-0001-hostile'])).stdout).toContain('Hostile red  title gnp.exe')
  })

  it('are kept intact but escaped in --json, so agents get the exact data', async () => {
    const added = parseJson<{ memoryId: string }>(await mk(['memory', 'add', hostile, '--json']))
    const shown = await mk(['memory', 'show', added.memoryId, '--json'])
    expectSafe(shown)
    expect(parseJson<{ content: string }>(shown).content).toBe(hostile)
  })

  it('in an error message never reach the terminal', async () => {
    const run = await mk(['knowledge', 'show', 'no-such\u001b]0;pwned\u0007'])
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toContain('no-such')
    expect(run.stderr).not.toMatch(controlSequence)
  })
})
