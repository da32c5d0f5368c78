import { cp, readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorObject } from '../../src/errors.js'
import { Resources } from '../../src/tools/context.js'
import { tools } from '../../src/tools/registry.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { invalidCases } from './invalid-cases.js'
import { openMk, type Mk } from '../../src/hosts/library/index.js'
import { callCli, callDispatcher, callLibrary, connectHttp, connectMcp, type CallResponse, type HttpConnection, type McpConnection } from './paths.js'

/*
 * Needs the built CLI (`npm run build`). Golden fixtures live in test/contract/golden/<name>/:
 * `workspace/` is copied to a fresh folder for each path, then `calls.json` runs in order.
 * Outputs must equal the golden output exactly; errors must contain the golden error.
 */

interface GoldenCall {
  title: string
  tool: string
  input: Record<string, unknown>
  /** exitCode: 1 when the tool ran and found blocking problems (CLI exit 1; over MCP still a result, not an error). */
  expect: { output: unknown; exitCode?: 0 | 1 } | { error: Partial<ErrorObject> }
}

interface Golden {
  description: string
  /** Keys whose values differ per run (generated ids, times); compared as "<masked>". */
  mask?: string[]
  calls: GoldenCall[]
}

const goldenDirectory = fileURLToPath(new URL('./golden/', import.meta.url))
const goldenNames = (await readdir(goldenDirectory)).sort()

function masked(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => masked(item, keys))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, keys.has(key) ? '<masked>' : masked(item, keys)]))
}

/** What the three paths must agree on: the output, or the error without per-path details (temp paths, the schema MCP adds). */
function comparable(response: CallResponse, root: string, keys: ReadonlySet<string>): unknown {
  if (response.ok) return { output: masked(response.output, keys) }
  const { details, ...error } = response.error
  const { inputSchema: _schema, ...rest } = details ?? {}
  return { error: JSON.parse(JSON.stringify(masked({ ...error, details: rest }, keys)).replaceAll(root, '<root>')) as unknown }
}

function expectGolden(response: CallResponse, call: GoldenCall, path: string, keys: ReadonlySet<string>): void {
  const label = `${path}: ${call.title}`
  if ('output' in call.expect) {
    expect(response.ok ? masked(response.output, keys) : response.error, label).toEqual(masked(call.expect.output, keys))
  } else {
    expect(response.ok ? response.output : response.error, label).toMatchObject(call.expect.error)
  }
}

async function freshCopy(name: string): Promise<TempWorkspace> {
  const workspace = await makeWorkspace()
  await cp(`${goldenDirectory}${name}/workspace`, workspace.root, { recursive: true })
  return workspace
}

describe.each(goldenNames)('golden %s', (name) => {
  it('gives the same responses through the dispatcher, the CLI (--json), an MCP client, the library and HTTP (mk serve)', async () => {
    const golden = JSON.parse(await readFile(`${goldenDirectory}${name}/calls.json`, 'utf8')) as Golden
    const keys = new Set(golden.mask ?? [])
    const places = {
      dispatcher: await freshCopy(name),
      cli: await freshCopy(name),
      mcp: await freshCopy(name),
      library: await freshCopy(name),
      http: await freshCopy(name),
    }
    const resources = new Resources()
    const mcp = await connectMcp(places.mcp)
    const library = await openMk({ cwd: places.library.root, env: { MK_HOME: places.library.mkHome } })
    const http = await connectHttp(places.http)
    try {
      for (const call of golden.calls) {
        const tool = tools.find((candidate) => candidate.name === call.tool)
        expect(tool, `${call.tool} is registered`).toBeDefined()
        if (tool === undefined) continue
        const viaDispatcher = await callDispatcher(tool, call.input, places.dispatcher, resources)
        const viaCli = await callCli(call.tool, call.input, places.cli)
        const viaMcp = await mcp.call(call.tool, call.input)
        const viaLibrary = await callLibrary(library, call.tool, call.input)
        const viaHttp = await http.call(call.tool, call.input)
        expectGolden(viaDispatcher, call, 'dispatcher', keys)
        expectGolden(viaCli, call, 'cli', keys)
        expectGolden(viaMcp, call, 'mcp', keys)
        expectGolden(viaLibrary, call, 'library', keys)
        expectGolden(viaHttp, call, 'http', keys)
        expect(viaCli.exitCode, `cli exit code: ${call.title}`).toBe('output' in call.expect ? (call.expect.exitCode ?? 0) : 2)
        const reference = comparable(viaDispatcher, places.dispatcher.root, keys)
        expect(comparable(viaCli, places.cli.root, keys), `cli agrees with the dispatcher: ${call.title}`).toEqual(reference)
        expect(comparable(viaMcp, places.mcp.root, keys), `mcp agrees with the dispatcher: ${call.title}`).toEqual(reference)
        expect(comparable(viaLibrary, places.library.root, keys), `the library agrees with the dispatcher: ${call.title}`).toEqual(reference)
        expect(comparable(viaHttp, places.http.root, keys), `http agrees with the dispatcher: ${call.title}`).toEqual(reference)
      }
    } finally {
      await mcp.close()
      await library.close()
      await http.close()
      await resources.closeAll()
      for (const place of Object.values(places)) await place.cleanup()
    }
  })
})

describe('invalid input on every path', () => {
  let workspace: TempWorkspace
  let mcp: McpConnection
  let library: Mk
  let http: HttpConnection

  beforeAll(async () => {
    workspace = await makeWorkspace()
    mcp = await connectMcp(workspace)
    library = await openMk({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
    http = await connectHttp(workspace)
  })

  afterAll(async () => {
    await mcp.close()
    await library.close()
    await http.close()
    await workspace.cleanup()
  })

  const cases = tools.flatMap((tool) => invalidCases(tool).map((invalid) => [tool.name, invalid.kind, invalid.field, tool, invalid] as const))

  // Each case is independent and mostly waits on a spawned CLI, so they run side by side.
  it.concurrent.for(cases)('%s, %s (%s): INVALID_INPUT naming the field', async ([, , field, tool, invalid], { expect }) => {
    const responses = {
      dispatcher: await callDispatcher(tool, invalid.input, workspace),
      cli: await callCli(tool.name, invalid.input, workspace),
      mcp: await mcp.call(tool.name, invalid.input),
      library: await callLibrary(library, tool.name, invalid.input),
      http: await http.call(tool.name, invalid.input),
    }
    for (const [path, response] of Object.entries(responses)) {
      expect(response.ok, `${path} refused the input`).toBe(false)
      if (response.ok) continue
      expect(response.error.errorCode, path).toBe('INVALID_INPUT')
      expect(response.error.message, path).toContain(field)
      const problems = response.error.details?.problems as { path: string; expected: string; received: string }[]
      expect(
        problems.map((problem) => problem.path.split(/[.[]/)[0]),
        path,
      ).toContain(field)
      expect(
        problems.every((problem) => problem.expected !== '' && problem.received !== ''),
        path,
      ).toBe(true)
    }
    expect(responses.cli.exitCode).toBe(2)
    expect(responses.http.status).toBe(400)
    // Over MCP the error also carries the input schema, so a model can correct the call.
    const viaMcp = responses.mcp as { ok: false; error: ErrorObject }
    expect(viaMcp.error.details?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
  })
})
