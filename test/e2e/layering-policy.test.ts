import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const policy = readFileSync(fileURLToPath(new URL('../../knowledge/policies/policy-layering.md', import.meta.url)), 'utf8')

interface CheckOutput {
  passed: boolean
  violations: { constraintId: string; location: { file: string } }[]
}

describe("the project's own layering policy", () => {
  let workspace: TempWorkspace | undefined
  afterEach(async () => {
    await workspace?.cleanup()
    workspace = undefined
  })

  it('blocks every wrong-way import and lets the right-way ones through', async () => {
    workspace = await makeWorkspace({
      'knowledge/policies/policy-layering.md': policy,
      'src/knowledge/wrong.ts': "import { registry } from '../tools/registry.js'\nexport const a = registry\n",
      'src/constraints/scan/wrong.ts': "import { baseCommand } from '../../cli/base-command.js'\nexport const b = baseCommand\n",
      'src/git/wrong.ts': "import { search } from '../search/search-index.js'\nexport const c = search\n",
      'src/tools/wrong.ts': "import { render } from '../cli/render.js'\nexport const d = render\n",
      'src/knowledge/right.ts': "import { MkError } from '../errors.js'\nimport { walk } from '../fs/walk.js'\nexport const e = [MkError, walk]\n",
      'src/tools/right.ts': "import { loadItems } from '../knowledge/load.js'\nexport const f = loadItems\n",
      'commands/right.ts': "import { baseCommand } from '../src/cli/base-command.js'\nexport const g = baseCommand\n",
    })
    const run = await runMk(['knowledge', 'check', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(run.exitCode).toBe(1)
    const output = parseJson<CheckOutput>(run)
    const found = output.violations.map((v) => `${v.constraintId} ${v.location.file}`).sort()
    expect(found).toEqual([
      'domain-below-tools src/constraints/scan/wrong.ts',
      'domain-below-tools src/knowledge/wrong.ts',
      'foundations-below-domain src/git/wrong.ts',
      'tools-below-cli src/tools/wrong.ts',
    ])
  })
})
