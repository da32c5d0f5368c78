import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roles, type Role } from '../../src/config/credential.js'
import { contextField, identityFieldKinds, type IdentityKind } from '../../src/hosts/http/caller-input.js'
import type { AnyTool } from '../../src/tools/define.js'
import { httpRoutes } from '../../src/hosts/http/routes.js'
import { inputJsonSchema } from '../../src/tools/generate/json-schema.js'
import { toolsForProfile } from '../../src/tools/catalog/profiles.js'
import { registeredTools } from '../../src/tools/catalog/registered.js'
import { tiersOfRole } from '../../src/tools/roles.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * The security matrix of the team server, generated from the tool registry:
 * every tool `mk serve` offers, called over HTTP on 127.0.0.1 with a key of
 * every role, with and without an agent and team, naming in each identity
 * field its input schema has someone else (and itself). A new tool, or a new
 * identity field of a known kind, is covered without editing this file; a new
 * field that looks like an identity but is of no known kind fails the first test.
 *
 * Every probe carries a key no input schema has, so a call the role and the
 * identity checks let through stops at input validation (400): the matrix
 * never runs a tool (no model download, no sync).
 */

const probe = { __security_matrix_probe__: true }
// The server serves its workspace as tenant default; with --data each tenant would get its own store.
const tenant = 'default'
const own = { agent: 'me', team: 'us' } as const satisfies Record<IdentityKind, string>
const someoneElse = { agent: 'someone-else', team: 'another-team' } as const satisfies Record<IdentityKind, string>

interface Credential {
  key: string
  role: Role
  /** Whether the key carries agent_id and team_id. */
  carriesIdentity: boolean
}

const credentials: Credential[] = roles.flatMap((role) => [
  { key: `key-${role}-with-identity`, role, carriesIdentity: true },
  { key: `key-${role}-tenant-only`, role, carriesIdentity: false },
])

function keyRegistry(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    credentials.map((credential) => [
      credential.key,
      {
        tenant_id: tenant,
        // A writer key names no role: a credential without one is a writer.
        ...(credential.role === 'writer' ? {} : { role: credential.role }),
        ...(credential.carriesIdentity ? { agent_id: own.agent, team_id: own.team } : {}),
      },
    ]),
  )
}

/** An input field (or a path inside `context`) that names an agent or a team. */
interface IdentityField {
  path: string
  kind: IdentityKind
  body(value: string): Record<string, unknown>
}

function identityFieldsOf(tool: AnyTool): IdentityField[] {
  const properties = Object.keys((inputJsonSchema(tool).properties ?? {}) as object)
  const fields: IdentityField[] = properties.flatMap((name) => {
    const kind = identityFieldKinds[name]
    return kind === undefined ? [] : [{ path: name, kind, body: (value: string) => ({ [name]: value }) }]
  })
  if (properties.includes(contextField)) {
    fields.push({ path: 'context.agent.id', kind: 'agent', body: (value) => ({ context: { agent: { id: value } } }) })
    fields.push({ path: 'context.agent.team_id', kind: 'team', body: (value) => ({ context: { agent: { team_id: value } } }) })
  }
  return fields
}

let tools: AnyTool[]
let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

beforeAll(async () => {
  tools = toolsForProfile(await registeredTools(), 'main')
  workspace = await makeWorkspace()
  server = await startServe({
    cwd: workspace.root,
    env: {
      MK_HOME: workspace.mkHome,
      MK_AUTH_MODE: 'api_key',
      MK_API_KEYS_JSON: JSON.stringify(keyRegistry()),
      MK_ADMIN_TOKEN: undefined,
      MK_ENV: undefined,
      MK_TENANT_QUOTAS: undefined,
    },
  })
})

afterAll(async () => {
  await server?.stop()
  await workspace?.cleanup()
})

async function call(path: string, body: Record<string, unknown>, key: string | undefined): Promise<{ status: number; body: Record<string, unknown> }> {
  if (server === undefined) throw new Error('the server did not start')
  return server.post(path, { ...body, ...probe }, key === undefined ? {} : { 'x-api-key': key })
}

function toolPath(tool: AnyTool): string {
  const path = httpRoutes([tool.name]).find((route) => route.path.startsWith('/v1/tools/'))?.path
  if (path === undefined) throw new Error(`${tool.name} has no /v1/tools route`)
  return path
}

describe('the team server security matrix, generated from the registry', () => {
  it('knows the kind of every input field that looks like an identity, and every input refuses unknown keys', () => {
    const unclassified = tools.flatMap((tool) =>
      Object.keys((inputJsonSchema(tool).properties ?? {}) as object)
        .filter((name) => /agent|team|owner|producer|consumer|tenant|principal|user_id/i.test(name))
        .filter((name) => identityFieldKinds[name] === undefined && name !== contextField)
        .map((name) => `${tool.name}.${name}`),
    )
    expect(unclassified, 'add these to identityFieldKinds in src/hosts/http/caller-input.ts').toEqual([])
    const open = tools.filter((tool) => inputJsonSchema(tool).additionalProperties !== false).map((tool) => tool.name)
    expect(open, 'the matrix relies on strict inputs to never run a tool').toEqual([])
    expect(tools.length).toBeGreaterThan(20)
  })

  it('refuses every route without a credential (401) and with another tenant (403 tenant_mismatch)', async () => {
    for (const route of httpRoutes(tools.map((tool) => tool.name))) {
      expect((await call(route.path, {}, undefined)).status, route.path).toBe(401)
      for (const credential of credentials) {
        const answer = await call(route.path, { tenant_id: 'another-tenant' }, credential.key)
        expect(answer.status, `${route.path} ${credential.key}`).toBe(403)
        expect(answer.body, `${route.path} ${credential.key}`).toMatchObject({ details: { reason: 'tenant_mismatch' } })
      }
    }
  })

  it('lets each role call exactly the tiers it may: reader read_only, writer also workspace, admin also system and elevated', async () => {
    for (const tool of tools) {
      for (const credential of credentials) {
        const answer = await call(toolPath(tool), {}, credential.key)
        const label = `${tool.name} (${tool.tier}) as ${credential.key}`
        if (tiersOfRole[credential.role].includes(tool.tier)) {
          expect(answer.status, label).toBe(400)
          expect(answer.body, label).toMatchObject({ errorCode: 'INVALID_INPUT' })
        } else {
          expect(answer.status, label).toBe(403)
          expect(answer.body, label).toMatchObject({ errorCode: 'FORBIDDEN', details: { reason: 'role_forbidden', role: credential.role } })
        }
      }
    }
  })

  it('lets an identity field name only what the credential carries; only an admin names another, and the request log records it', async () => {
    const audited: { tool: string; field: string }[] = []
    let fieldsSeen = 0
    for (const tool of tools) {
      for (const field of identityFieldsOf(tool)) {
        fieldsSeen += 1
        for (const credential of credentials) {
          const label = `${tool.name} ${field.path}=${someoneElse[field.kind]} as ${credential.key}`
          const answer = await call(toolPath(tool), field.body(someoneElse[field.kind]), credential.key)
          if (!tiersOfRole[credential.role].includes(tool.tier)) {
            expect(answer.body, label).toMatchObject({ details: { reason: 'role_forbidden' } })
          } else if (credential.role === 'admin') {
            expect(answer.status, label).toBe(400)
            audited.push({ tool: tool.name, field: field.path })
          } else {
            expect(answer.status, label).toBe(403)
            expect(answer.body, label).toMatchObject({ errorCode: 'FORBIDDEN', details: { reason: 'identity_mismatch', field: field.path } })
          }
          if (credential.carriesIdentity && tiersOfRole[credential.role].includes(tool.tier)) {
            const itself = await call(toolPath(tool), field.body(own[field.kind]), credential.key)
            expect(itself.status, `${tool.name} ${field.path}=${own[field.kind]} as ${credential.key}`).toBe(400)
          }
        }
      }
    }
    expect(fieldsSeen).toBeGreaterThan(10)
    // The request log line is written once the answer is sent: wait for the last one.
    const logged = async (): Promise<Record<string, unknown>[]> =>
      (server?.stderr() ?? '')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.acting_for !== undefined)
    for (let attempt = 0; (await logged()).length < audited.length && attempt < 100; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50))
    const lines = await logged()
    for (const { tool, field } of audited) {
      expect(
        lines.some((entry) => entry.tool === tool && (entry.acting_for as Record<string, string>)[field] !== undefined),
        `${tool} ${field} audited`,
      ).toBe(true)
    }
  }, 120_000)
})
