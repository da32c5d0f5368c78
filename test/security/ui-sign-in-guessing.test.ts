import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/*
 * Guessing keys at the knowledge site's sign-in form (run `npm run build` first): after a few wrong
 * keys from one address, its next key is not even checked until it has waited, and each further
 * wrong key doubles the wait. API calls with X-Api-Key are not affected.
 */

const keys = { 'key-a': { tenant_id: 'ta', agent_id: 'a', role: 'reader' } }

let workspace: TempWorkspace | undefined
let server: RunningServe | undefined

beforeAll(async () => {
  workspace = await makeWorkspace({})
  server = await startServe({
    cwd: workspace.root,
    args: ['--data', 'data'],
    env: { MK_HOME: workspace.mkHome, MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: JSON.stringify(keys), MK_ADMIN_TOKEN: undefined },
  })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await workspace?.cleanup()
}, 30_000)

async function signIn(key: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  if (server === undefined) throw new Error('the server did not start')
  const response = await fetch(`${server.url}/ui/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key }).toString(),
  })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() }
}

describe('the sign-in form, against a caller guessing keys', () => {
  it('answers 429 with Retry-After once one address has posted several wrong keys, even to the right key', async () => {
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn(`wrong-${attempt}`)).status).toBe(401)
    // A patient guesser waits as told; each wrong key it then sends doubles the wait (1 s, 2, 4, ...).
    const waits: number[] = []
    for (let attempt = 0; attempt < 12 && (waits.at(-1) ?? 0) < 4; attempt++) {
      const answer = await signIn(`still-wrong-${attempt}`)
      if (answer.status !== 429) {
        expect(answer.status).toBe(401)
        continue
      }
      expect(answer.body).toContain('Too many wrong keys')
      const wait = Number(answer.retryAfter)
      waits.push(wait)
      if (wait < 4) await new Promise((resolve) => setTimeout(resolve, wait * 1000))
    }
    expect(waits.slice(0, 1)).toEqual([1])
    expect(waits.at(-1)).toBeGreaterThanOrEqual(4)
    // While it waits, not even the right key is checked.
    expect((await signIn('key-a')).status).toBe(429)
    // The API is not the sign-in form: a key in X-Api-Key still works.
    const api = await fetch(`${server?.url ?? ''}/v1/tools/memory_search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key-a' },
      body: JSON.stringify({ query: 'anything', limit: 1 }),
    })
    expect(api.status).toBe(200)
  }, 60_000)
})
