import { createHash, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { roles } from '../../config/credential.js'
import { MkError } from '../../errors.js'
import { describeIssues } from '../../validation.js'
import { tenantIdPattern } from './routes.js'
import type { CallerIdentity } from './identity.js'

const keyEntrySchema = z.strictObject({
  tenant_id: z.string().regex(tenantIdPattern),
  agent_id: z.string().min(1).optional(),
  team_id: z.string().min(1).optional(),
  role: z.enum(roles).optional(),
})
const keyRegistrySchema = z.record(z.string().min(1), keyEntrySchema)

/** An API key as stored: its sha256, so a registry file never has to hold the secret itself. */
interface StoredKey {
  sha256: Buffer
  identity: CallerIdentity
}

const hashPrefix = 'sha256:'

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

function storedKey(key: string, entry: z.output<typeof keyEntrySchema>): StoredKey {
  const hashed = key.startsWith(hashPrefix) ? Buffer.from(key.slice(hashPrefix.length), 'hex') : sha256(key)
  if (hashed.length !== 32) {
    throw new MkError('INVALID_INPUT', `API key registry: "${key.slice(0, 12)}…" starts with sha256: but is not 64 hex digits`, {
      details: { hint: 'store a key as sha256:<hex of the sha256 of the key>, e.g. printf %s "$KEY" | sha256sum' },
    })
  }
  const identity: CallerIdentity = {
    tenantId: entry.tenant_id,
    ...(entry.agent_id === undefined ? {} : { agentId: entry.agent_id }),
    ...(entry.team_id === undefined ? {} : { teamId: entry.team_id }),
    ...(entry.role === undefined ? {} : { role: entry.role }),
  }
  return { sha256: hashed, identity }
}

/** API keys from MK_API_KEYS_JSON, else the file MK_API_KEYS_FILE names: `{ "<key or sha256:hex>": {tenant_id, agent_id?, team_id?, role?} }`. */
export async function loadApiKeys(env: NodeJS.ProcessEnv): Promise<ApiKeys> {
  const origin = env.MK_API_KEYS_JSON !== undefined && env.MK_API_KEYS_JSON !== '' ? 'MK_API_KEYS_JSON' : env.MK_API_KEYS_FILE
  if (origin === undefined || origin === '') {
    throw new MkError('INVALID_INPUT', 'API key auth needs keys: set MK_API_KEYS_JSON or MK_API_KEYS_FILE', {
      details: { hint: `MK_API_KEYS_JSON='{"sha256:<hex>": {"tenant_id": "team-a", "agent_id": "ci"}}'` },
    })
  }
  const text =
    origin === 'MK_API_KEYS_JSON'
      ? (env.MK_API_KEYS_JSON ?? '')
      : await readFile(origin, 'utf8').catch((error: unknown) => {
          throw new MkError('INVALID_INPUT', `MK_API_KEYS_FILE: cannot read ${origin}: ${(error as Error).message}`, { details: { file: origin } })
        })
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new MkError('INVALID_INPUT', `${origin}: not JSON: ${(error as Error).message}`, { details: { source: origin } })
  }
  const parsed = keyRegistrySchema.safeParse(raw)
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues, raw)
    throw new MkError('INVALID_INPUT', `${origin}: ${problems[0]?.message ?? 'invalid key registry'}`, { details: { source: origin, problems } })
  }
  return new ApiKeys(Object.entries(parsed.data).map(([key, entry]) => storedKey(key, entry)))
}

export class ApiKeys {
  constructor(private readonly keys: readonly StoredKey[]) {}

  /** The identity of a presented key; every stored key is compared in constant time, so timing tells nothing. */
  identify(presented: string): CallerIdentity | undefined {
    const hashed = sha256(presented)
    let found: CallerIdentity | undefined
    for (const key of this.keys) if (timingSafeEqual(key.sha256, hashed)) found = key.identity
    return found
  }
}
