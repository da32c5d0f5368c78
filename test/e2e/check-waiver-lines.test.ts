import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface CheckOutput {
  violations: { constraintId: string; location: { file: string; line: number } }[]
  waived: { constraintId: string; location: { file: string; line: number } }[]
}

const noEval = [
  '---',
  'title: No eval',
  'status: accepted',
  'severity: block',
  'constraints:',
  '  - id: no-eval',
  '    operator: must_not_match',
  '    target: code',
  '    pattern: "eval\\\\("',
  '    paths: ["src/**"]',
  '---',
  '# No eval',
  '',
].join('\n')

const workspaces: TempWorkspace[] = []
afterEach(async () => {
  for (const workspace of workspaces.splice(0)) await workspace.cleanup()
})

function lines(run: Awaited<ReturnType<typeof runMk>>): { violations: number[]; waived: number[] } {
  const output = parseJson<CheckOutput>(run)
  return { violations: output.violations.map((v) => v.location.line), waived: output.waived.map((w) => w.location.line) }
}

describe('inline waivers cover one line', () => {
  it('a waiver after code on line 2 leaves the violation on line 3 reported, from a full check, the stored result and the staged check alike', async () => {
    const ws = await makeWorkspace({
      'knowledge/adr/adr-0001-no-eval.md': noEval,
      'src/a.js': 'const a = 1\nconst b = eval(x) // mk-ignore no-eval -- parses a trusted template\nconst c = eval(y)\n',
      'src/b.js':
        '// mk-ignore no-eval -- the next line only\nconst d = eval(z)\nconst e = eval(w)\nconst f = 1 // mk-ignore-next-line no-eval -- also the next line only\nconst g = eval(v)\n',
    })
    workspaces.push(ws)
    await gitInit(ws.root)
    const mk = (args: string[]) => runMk(['knowledge', 'check', '--json', ...args], { cwd: ws.root, env: { MK_HOME: ws.mkHome } })
    const expected = { violations: [3, 3], waived: [2, 2, 5] }

    const full = await mk([])
    expect(full.exitCode).toBe(1)
    expect(lines(full)).toEqual(expected)
    const stored = await mk([])
    expect(lines(stored)).toEqual(expected)
    expect(lines(await mk(['--files', 'src/a.js', '--files', 'src/b.js']))).toEqual(expected)

    expect(spawnSync('git', ['add', '-A'], { cwd: ws.root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).status).toBe(0)
    expect(lines(await mk(['--staged']))).toEqual(expected)
    expect(lines(await mk(['--staged']))).toEqual(expected)
  })
})
