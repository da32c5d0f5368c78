import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { Log } from 'sarif'
import { afterEach, describe, expect, it } from 'vitest'
import { runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

// The OASIS SARIF 2.1.0 (errata01) schema; see its $comment for where it comes from.
const schemaFile = fileURLToPath(new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url))
const { $schema: _draft, id, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>
const ajv = new Ajv({ strict: false, allErrors: true })
;(addFormatsModule as unknown as (instance: Ajv) => Ajv)(ajv)
const validate = ajv.compile({ ...schema, $id: String(id) })
const mkVersion = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version

const policy = (constraints: string[]): string =>
  ['---', 'title: Rules', 'type: policy', 'status: accepted', 'severity: block', 'constraints:', ...constraints, '---', '# Rules', ''].join('\n')
const noConsole = ['  - id: no-console', '    operator: must_not_match', '    target: code', '    pattern: "console\\\\.log"']
const useLogger = ['  - id: use-logger', '    operator: must_use', '    target: import', '    pattern: "pino"']

const workspaces: TempWorkspace[] = []
afterEach(async () => {
  for (const workspace of workspaces.splice(0)) await workspace.cleanup()
})

/** A git repository whose mk workspace is the sub-folder packages/app (a monorepo). */
async function monorepo(files: Record<string, string>): Promise<{ repository: string; app: string; ws: TempWorkspace }> {
  const ws = await makeWorkspace(Object.fromEntries(Object.entries(files).map(([path, content]) => [`packages/app/${path}`, content])))
  workspaces.push(ws)
  expect(spawnSync('git', ['init', '-q'], { cwd: ws.root }).status).toBe(0)
  return { repository: ws.root, app: join(ws.root, 'packages', 'app'), ws }
}

async function sarif(cwd: string, ws: TempWorkspace): Promise<{ log: Log; exitCode: number; stderr: string }> {
  const run = await runMk(['knowledge', 'check', '--format', 'sarif'], { cwd, env: { MK_HOME: ws.mkHome } })
  const log = JSON.parse(run.stdout) as Log
  expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
  return { log, exitCode: run.exitCode, stderr: run.stderr }
}

describe('SARIF for code scanning (issue 12)', () => {
  it('locates results from the repository root when the workspace is a sub-folder, with uriBaseId and the tool version', async () => {
    const { app, ws } = await monorepo({
      '.mkrc': 'check:\n  failOn: block\n',
      'knowledge/policy/rules.md': policy(noConsole),
      'src/a.ts': 'console.log(1); console.log(2)\n',
    })
    const { log, exitCode } = await sarif(app, ws)
    expect(exitCode).toBe(1)
    const [run] = log.runs
    expect(run?.tool.driver).toMatchObject({ name: 'mk', version: mkVersion })
    expect(run?.tool.driver.rules?.map((rule) => rule.id)).toEqual(['no-console'])
    expect(run?.invocations).toEqual([{ executionSuccessful: true }])
    const locations = run?.results?.map((result) => result.locations?.[0]?.physicalLocation)
    expect(locations).toEqual([
      { artifactLocation: { uri: 'packages/app/src/a.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 1 } },
      { artifactLocation: { uri: 'packages/app/src/a.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 17 } },
    ])
    // Two results on one line have distinct fingerprints, or code scanning merges them into one alert.
    const fingerprints = run?.results?.map((result) => result.partialFingerprints?.['mkSubjectHash/v1'])
    expect(new Set(fingerprints).size).toBe(2)
  })

  it('points a repository-wide finding of knowledge outside the repository at a file in the repository, not ../', async () => {
    const { app, repository, ws } = await monorepo({
      '.mkrc': 'knowledge:\n  sources:\n    - name: company\n      layer: project\n      path: ../../../company\n',
      'src/a.ts': 'export const a = 1\n',
    })
    const company = join(dirname(repository), 'company')
    await mkdir(join(company, 'policy'), { recursive: true })
    await writeFile(join(company, 'policy', 'logging.md'), policy(useLogger))
    const { log } = await sarif(app, ws)
    const uris = log.runs[0]?.results?.map((result) => result.locations?.[0]?.physicalLocation?.artifactLocation?.uri)
    expect(uris).toEqual(['packages/app/.mkrc'])
  })

  it('writes a SARIF log carrying the error when the check cannot run, never an empty file', async () => {
    const { app, ws } = await monorepo({
      '.mkrc': 'check:\n  failOn: block\n',
      'knowledge/policy/broken.md': '---\ntitle: Broken\nconstraints:\n  - operator: must_not_match\n    target: code\n    pattern: "(unclosed"\n---\n',
    })
    const { log, exitCode, stderr } = await sarif(app, ws)
    expect(exitCode).toBe(2)
    expect(stderr).toContain('invalid regular expression')
    const [invocation] = log.runs[0]?.invocations ?? []
    expect(invocation?.executionSuccessful).toBe(false)
    expect(invocation?.toolExecutionNotifications?.[0]).toMatchObject({ level: 'error', message: { text: expect.stringContaining('INVALID_INPUT') } })
    expect(log.runs[0]?.results).toEqual([])
  })
})
