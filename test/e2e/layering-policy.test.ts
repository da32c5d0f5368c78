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
      'src/constraints/scan/wrong.ts': "import { baseCommand } from '../../hosts/cli/base-command.js'\nexport const b = baseCommand\n",
      'src/git/wrong.ts': "import { search } from '../search/search-index.js'\nexport const c = search\n",
      'src/tools/wrong.ts': "import { render } from '../hosts/cli/render.js'\nexport const d = render\n",
      'src/search/wrong.ts': "import type { MemoryRecord } from '../memory/model.js'\nexport type E = MemoryRecord\n",
      'src/memory/sideways.ts': "import { runCheck } from '../constraints/check.js'\nexport const f = runCheck\n",
      'src/hosts/http/sideways.ts': "import { serveStdio } from '../mcp/server.js'\nexport const g = serveStdio\n",
      'src/words.ts': "import { walk } from './fs/walk.js'\nexport const h = walk\n",
      'src/knowledge/right.ts': "import { MkError } from '../errors.js'\nimport { walk } from '../fs/walk.js'\nexport const i = [MkError, walk]\n",
      'src/tools/right.ts': "import { loadItems } from '../knowledge/load.js'\nexport const j = loadItems\n",
      'src/hosts/cli/right.ts': "import { localSocketPath } from '../http/socket.js'\nexport const k = localSocketPath\n",
      'commands/right.ts': "import { baseCommand } from '../src/hosts/cli/base-command.js'\nexport const l = baseCommand\n",
    })
    const run = await runMk(['knowledge', 'check', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    expect(run.exitCode).toBe(1)
    const output = parseJson<CheckOutput>(run)
    const found = output.violations.map((v) => `${v.constraintId} ${v.location.file}`).sort()
    expect(found).toEqual([
      'floor-01-base src/words.ts',
      'floor-03-git src/git/wrong.ts',
      'floor-05-engine src/search/wrong.ts',
      'floor-06-knowledge src/knowledge/wrong.ts',
      'floor-07-domain src/constraints/scan/wrong.ts',
      'floor-07-domain src/memory/sideways.ts',
      'floor-14-tools src/tools/wrong.ts',
      'floor-15-hosts src/hosts/http/sideways.ts',
    ])
  })
})
