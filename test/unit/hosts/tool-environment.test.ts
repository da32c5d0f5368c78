import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runtimeEnvFrom } from '../../../src/config/workspace.js'
import { runToolCall } from '../../../src/hosts/http/tool-call.js'
import { TenantStores } from '../../../src/hosts/http/tenants.js'
import { openMk } from '../../../src/hosts/library/index.js'
import { doctorCheck } from '../../../src/tools/doctor/check.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

/** A variable this process never has: a tool that read process.env would always find it missing. */
const tokenVariable = 'MK_TOOL_ENVIRONMENT_TEST_TOKEN'
const gitSource = `knowledge:\n  sources:\n    - {name: acme, layer: company, url: "http://127.0.0.1:9/acme.git", tokenEnv: ${tokenVariable}}\n`

interface DoctorOutput {
  checks: { name: string; status: string }[]
}

function tokenWarned(output: unknown): boolean {
  return (output as DoctorOutput).checks.some((check) => check.name === 'source acme: token' && check.status === 'warn')
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

describe('a tool reads the environment its host gives it, not the process environment', () => {
  it('doctor_check through the library sees the token only in the env openMk was given', async () => {
    expect(process.env[tokenVariable]).toBeUndefined()
    const workspace: TempWorkspace = await makeWorkspace({ '.mkrc': gitSource })
    cleanups.push(() => workspace.cleanup())
    const check = async (env: Record<string, string>): Promise<unknown> => {
      const mk = await openMk({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome, ...env } })
      try {
        return await mk.doctorCheck({ offline: true })
      } finally {
        await mk.close()
      }
    }
    expect(tokenWarned(await check({}))).toBe(true)
    expect(tokenWarned(await check({ [tokenVariable]: 'a-token' }))).toBe(false)
  })

  it('a team server call sees the server’s environment for the operator’s settings', async () => {
    const data = await mkdtemp(join(tmpdir(), 'mk-tool-env-'))
    cleanups.push(() => rm(data, { recursive: true, force: true }))
    await mkdir(join(data, 'tenants', 'acme', 'workspace'), { recursive: true })
    await writeFile(join(data, 'tenants', 'acme', 'workspace', '.mkrc'), gitSource)
    const stores = new TenantStores({ dataDir: data })
    cleanups.push(() => stores.closeAll())
    const tools = new Map([[doctorCheck.name, doctorCheck]])
    const call = { tool: doctorCheck.name, tenantId: 'acme', scope: 'default', input: { offline: true }, runtime: { ...runtimeEnvFrom({}), served: true } }
    const without = await runToolCall(stores, tools, call, {})
    const withToken = await runToolCall(stores, tools, call, { [tokenVariable]: 'a-token' })
    expect(without.ok && tokenWarned(without.output)).toBe(true)
    expect(withToken.ok && !tokenWarned(withToken.output)).toBe(true)
  })
})
