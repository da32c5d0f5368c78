import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const accepted = [
  '---',
  'title: No eval',
  'status: accepted',
  'constraints:',
  '  - id: no-eval',
  '    operator: must_not_match',
  '    target: code',
  '    pattern: "eval\\\\("',
  '---',
  '# No eval',
  '',
].join('\n')

const proposed = [
  '---',
  'title: No fetch',
  'status: proposed',
  'constraints:',
  '  - id: no-fetch',
  '    operator: must_not_match',
  '    target: code',
  '    pattern: "fetch\\\\("',
  '  - id: no-axios',
  '    operator: must_not_use',
  '    target: dependency',
  '    pattern: "^axios$"',
  '---',
  '# No fetch',
  '',
].join('\n')

const broken = ['---', 'title: [broken', 'status: accepted', '---', '# Broken', ''].join('\n')

interface CheckOutput {
  passed: boolean
  notEnforced: { constraints: number; items: { id: string; path: string; status: string; constraints: string[] }[] }
  knowledgeProblems?: { file: string; line: number; code: string }[]
}

let ws: TempWorkspace
beforeAll(async () => {
  ws = await makeWorkspace({
    'knowledge/adr/adr-0001-no-eval.md': accepted,
    'knowledge/adr/adr-0002-no-fetch.md': proposed,
    'knowledge/adr/adr-0003-broken.md': broken,
    'src/a.js': 'fetch(url)\n',
  })
})
afterAll(async () => {
  await ws.cleanup()
})

const mk = (args: string[]) => runMk(args, { cwd: ws.root, env: { MK_HOME: ws.mkHome } })

describe('what knowledge check leaves out, it says', () => {
  it('counts the constraints of proposed items, and warns of a knowledge file with broken frontmatter by file and line (exit 0)', async () => {
    for (const attempt of ['first run', 'stored result']) {
      const run = await mk(['knowledge', 'check', '--json'])
      expect(run.exitCode, attempt).toBe(0)
      const output = parseJson<CheckOutput>(run)
      expect(output.notEnforced).toEqual({
        constraints: 2,
        items: [{ id: 'adr-0002-no-fetch', path: 'knowledge/adr/adr-0002-no-fetch.md', status: 'proposed', constraints: ['no-fetch', 'no-axios'] }],
      })
      expect(output.knowledgeProblems).toEqual([expect.objectContaining({ file: 'knowledge/adr/adr-0003-broken.md', line: 3, code: 'malformed-frontmatter' })])
      expect(run.stderr).toContain('knowledge/adr/adr-0003-broken.md:3: not loaded, so not checked')
    }
  })

  it('says both in the text, GitHub and SARIF reports', async () => {
    const text = await mk(['knowledge', 'check'])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toContain('2 constraints of 1 proposed item not enforced')
    expect(text.stderr).toContain('knowledge/adr/adr-0003-broken.md:3')

    const github = await mk(['knowledge', 'check', '--format', 'github'])
    expect(github.stdout).toContain('::warning file=knowledge/adr/adr-0003-broken.md,line=3,title=knowledge file not loaded::')
    expect(github.stdout).toContain('2 constraints of 1 proposed item not enforced')

    const sarif = JSON.parse((await mk(['knowledge', 'check', '--format', 'sarif'])).stdout) as {
      runs: { invocations: { toolExecutionNotifications?: { level: string; message: { text: string } }[] }[] }[]
    }
    const notifications = sarif.runs[0]?.invocations[0]?.toolExecutionNotifications ?? []
    expect(notifications.map((notification) => [notification.level, notification.message.text])).toEqual([
      ['warning', expect.stringContaining('knowledge/adr/adr-0003-broken.md:3: not loaded') as string],
      ['note', '2 constraints of 1 proposed item not enforced'],
    ])
  })

  it('counts only the selected items with --item', async () => {
    const output = parseJson<CheckOutput>(await mk(['knowledge', 'check', '--json', '--item', 'adr-0001-no-eval']))
    expect(output.notEnforced).toEqual({ constraints: 0, items: [] })
  })

  it('knowledge lint notes each proposed item with constraints', async () => {
    const run = await mk(['knowledge', 'lint', '--json'])
    const output = parseJson<{ problems: { file: string; line: number; code: string; severity: string; message: string }[] }>(run)
    expect(output.problems.filter((problem) => problem.code === 'constraints-not-enforced')).toEqual([
      {
        file: 'knowledge/adr/adr-0002-no-fetch.md',
        line: 5,
        code: 'constraints-not-enforced',
        severity: 'info',
        message: 'status proposed: its 2 constraints (no-fetch, no-axios) are not enforced until the item is accepted',
      },
    ])
  })
})
