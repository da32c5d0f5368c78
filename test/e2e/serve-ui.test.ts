import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { request as httpRequest } from 'node:http'
import { mkdir, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { browserSkipReason, launchChromium, onCleanPage, screenshot, seriousAxeViolations, watchedPage } from '../helpers/browser.js'
import { startServe, type RunningServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const skipReason = browserSkipReason()
if (skipReason !== undefined) console.warn(skipReason)

const slow = 180_000
const keys = {
  'key-a': { tenant_id: 'team-a', agent_id: 'agent-a', role: 'reader' },
  'key-a-writer': { tenant_id: 'team-a', agent_id: 'agent-w' },
  'key-b': { tenant_id: 'team-b', agent_id: 'agent-b' },
}

const adr = (id: string, title: string, text: string): string =>
  ['---', `id: ${id}`, 'type: adr', `title: ${title}`, 'status: accepted', 'date: 2026-03-01', '---', `# ${title}`, '', text, ''].join('\n')

async function write(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, content)
}

/** A GET with the path sent exactly as written (fetch would normalise `..` away) and an optional cookie. */
function rawGet(url: string, path: string, cookie?: string): Promise<{ status: number; location: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(url), { path, method: 'GET', headers: cookie === undefined ? {} : { cookie } }, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location, body }))
    })
    request.on('error', reject)
    request.end()
  })
}

/** Signs in with a key as a form would, and returns the session cookie (name=value). */
async function signIn(
  url: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; cookie: string | undefined; setCookie: string }> {
  const response = await fetch(`${url}/ui/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ key }).toString(),
  })
  const setCookie = response.headers.get('set-cookie') ?? ''
  return { status: response.status, cookie: setCookie === '' ? undefined : setCookie.split(';')[0], setCookie }
}

describe.skipIf(skipReason !== undefined)('mk serve: the knowledge site live at /ui/, per tenant, behind auth', () => {
  let workspace: TempWorkspace
  let server: RunningServe
  let browser: Browser
  let data: string
  const tenantA = (): string => join(data, 'tenants', 'team-a', 'workspace')

  beforeAll(async () => {
    workspace = await makeWorkspace()
    data = join(workspace.root, 'data')
    await write(
      join(tenantA(), 'knowledge/adr/adr-0001-ledger-in-postgres.md'),
      adr('adr-0001-ledger-in-postgres', 'Keep the ledger in Postgres', 'One database.'),
    )
    await write(
      join(data, 'tenants/team-b/workspace/knowledge/adr/adr-0001-secret-merger-plan.md'),
      adr('adr-0001-secret-merger-plan', 'Merge with Globex in March', 'Nobody outside team B may read this.'),
    )
    server = await startServe({
      cwd: workspace.root,
      args: ['--data', data],
      env: { MK_HOME: workspace.mkHome, MK_AUTH_MODE: 'api_key', MK_API_KEYS_JSON: JSON.stringify(keys) },
    })
    browser = await launchChromium()
  }, slow)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await workspace?.cleanup()
  })

  it('sends a browser without a session to the sign-in page, which is accessible', async () => {
    await onCleanPage(browser, async ({ page }) => {
      await page.goto(`${server.url}/ui/`)
      expect(new URL(page.url()).pathname).toBe('/ui/login')
      expect(await page.locator('h1').textContent()).toContain('Sign in')
      expect(await seriousAxeViolations(page)).toEqual([])
      await screenshot(page, 'ui-login')
    })
    for (const path of ['/ui/graph.html', '/ui/items/adr-0001-ledger-in-postgres.html', '/ui/assets/search-index.js']) {
      const answer = await rawGet(server.url, path)
      expect(answer, path).toMatchObject({ status: 303, location: '/ui/login' })
      expect(answer.body).not.toContain('Postgres')
    }
  })

  it('refuses a wrong key, and a sign-in posted from another site', async () => {
    const wrong = await signIn(server.url, 'key-z')
    expect(wrong.status).toBe(401)
    expect(wrong.cookie).toBeUndefined()
    const watched = await watchedPage(browser)
    try {
      await watched.page.goto(`${server.url}/ui/login`)
      await watched.page.getByLabel('Key').fill('not-a-key')
      await watched.page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => watched.page.getByRole('alert').textContent()).toContain('not known')
    } finally {
      await watched.close()
    }
    const forged = await signIn(server.url, 'key-a', { origin: 'http://evil.example' })
    expect(forged.status).toBe(403)
    expect(forged.cookie).toBeUndefined()
  })

  it(
    'signs in with a key in the form and shows that tenant’s site: every page clean, nothing of another tenant',
    async () => {
      await onCleanPage(browser, async ({ page }) => {
        await page.goto(`${server.url}/ui/`)
        await page.getByLabel('Key').fill('key-a')
        await page.getByRole('button', { name: 'Sign in' }).click()
        await page.waitForURL(`${server.url}/ui/`)
        expect(await page.locator('#log').textContent()).toContain('Keep the ledger in Postgres')
        expect(await seriousAxeViolations(page)).toEqual([])
        await screenshot(page, 'ui-log')
        const cookies = await page.context().cookies()
        expect(cookies).toEqual([expect.objectContaining({ name: 'mk_ui_session', httpOnly: true, sameSite: 'Strict', path: '/ui' })])
        const seen = new Set<string>()
        const queue = [`${server.url}/ui/`]
        while (queue.length > 0) {
          const url = queue.shift() ?? ''
          if (seen.has(url)) continue
          seen.add(url)
          const response = await page.goto(url)
          expect(response?.status(), url).toBe(200)
          expect(await page.content(), url).not.toContain('Globex')
          const hrefs = await page.$$eval('a[href]', (anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''))
          for (const href of hrefs) {
            const target = new URL(href, url)
            target.hash = ''
            if (target.origin === server.url && !seen.has(target.href)) queue.push(target.href)
          }
        }
        expect(seen.size).toBeGreaterThanOrEqual(4)
      })
    },
    slow,
  )

  it(
    'never shows tenant B’s site to tenant A’s cookie, nor a cookie whose tenant was changed',
    async () => {
      const a = await signIn(server.url, 'key-a')
      const b = await signIn(server.url, 'key-b')
      expect(a.setCookie).toMatch(/HttpOnly; SameSite=Strict/)
      const pageA = await rawGet(server.url, '/ui/index.html', a.cookie)
      const pageB = await rawGet(server.url, '/ui/index.html', b.cookie)
      expect(pageA.status).toBe(200)
      expect(pageA.body).toContain('Postgres')
      expect(pageA.body).not.toContain('Globex')
      expect(pageB.body).toContain('Globex')
      expect(pageB.body).not.toContain('Postgres')
      expect((await rawGet(server.url, '/ui/items/adr-0001-secret-merger-plan.html', a.cookie)).status).toBe(404)
      const changed = a.cookie?.replace('team-a', 'team-b')
      expect(changed).toContain('team-b')
      expect(await rawGet(server.url, '/ui/index.html', changed)).toMatchObject({ status: 303, location: '/ui/login' })
    },
    slow,
  )

  it('refuses paths that leave the site folder', async () => {
    const { cookie } = await signIn(server.url, 'key-a')
    const attempts = [
      '/ui/../../.mkrc',
      '/ui/..%2f..%2f.mkrc',
      '/ui/%2e%2e/%2e%2e/knowledge/adr/adr-0001-ledger-in-postgres.md',
      '/ui/..%2f..%2f..%2f..%2fteam-b%2fworkspace%2fknowledge%2fadr%2fadr-0001-secret-merger-plan.md',
      '/ui/assets/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/ui/%00index.html',
      '/ui/.mk-site',
    ]
    for (const path of attempts) {
      const answer = await rawGet(server.url, path, cookie)
      // .mk-site is inside the folder (served or not found is fine); nothing outside it is ever served.
      if (path !== '/ui/.mk-site') expect(answer.status, path).toBe(404)
      expect(answer.body, path).not.toMatch(/Globex|root:|One database/)
    }
  })

  it(
    'keeps the built site until the tenant’s knowledge changes, then shows the change',
    async () => {
      const { cookie } = await signIn(server.url, 'key-a')
      const index = join(tenantA(), '.mk/ui-site/index.html')
      expect((await rawGet(server.url, '/ui/', cookie)).status).toBe(200)
      const builtAt = (await stat(index)).mtimeMs
      await new Promise((resolve) => setTimeout(resolve, 2500))
      expect((await rawGet(server.url, '/ui/', cookie)).status).toBe(200)
      expect((await stat(index)).mtimeMs).toBe(builtAt)
      await write(join(tenantA(), 'knowledge/adr/adr-0002-nightly-backups.md'), adr('adr-0002-nightly-backups', 'Back up the ledger nightly', 'At 02:00.'))
      await new Promise((resolve) => setTimeout(resolve, 2500))
      const after = await rawGet(server.url, '/ui/', cookie)
      expect(after.body).toContain('Back up the ledger nightly')
      expect((await stat(index)).mtimeMs).toBeGreaterThan(builtAt)
    },
    slow,
  )

  it(
    'shows the tenant’s shared memories and never a private one, not even to its owner',
    async () => {
      const writer = { 'x-api-key': 'key-a-writer' }
      expect((await server.post('/v1/tools/memory_add', { content: 'The ledger backup runs at 02:00', layer: 'project', lane: 'shared' }, writer)).status).toBe(
        200,
      )
      const secret = await server.post(
        '/v1/tools/memory_add',
        { content: 'Agent W keeps the payroll export key here', layer: 'project', lane: 'private', owner_agent_id: 'agent-w' },
        writer,
      )
      expect(secret.status).toBe(200)
      const agentOwn = await server.post('/v1/tools/memory_add', { content: 'Agent W prefers tabs', layer: 'agent' }, writer)
      expect(agentOwn.status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 2500))
      for (const key of ['key-a', 'key-a-writer']) {
        const { cookie } = await signIn(server.url, key)
        const page = await rawGet(server.url, '/ui/memories.html', cookie)
        expect(page.status).toBe(200)
        expect(page.body).toContain('The ledger backup runs at 02:00')
        expect(page.body).not.toContain('payroll')
        expect(page.body).not.toContain('prefers tabs')
      }
      const { cookie } = await signIn(server.url, 'key-b')
      expect((await rawGet(server.url, '/ui/memories.html', cookie)).body).not.toContain('ledger backup')
    },
    slow,
  )
})

describe.skipIf(skipReason !== undefined)('mk serve: a /ui/ session ends', () => {
  it(
    'refuses a session cookie once it has expired, and after sign-out',
    async () => {
      const workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-x.md': adr('adr-0001-x', 'Keep one workspace', 'Text.') })
      const server = await startServe({
        cwd: workspace.root,
        env: {
          MK_HOME: workspace.mkHome,
          MK_AUTH_MODE: 'api_key',
          MK_API_KEYS_JSON: JSON.stringify({ 'key-d': { tenant_id: 'default' } }),
          MK_UI_SESSION_S: '2',
        },
      })
      try {
        const first = await signIn(server.url, 'key-d')
        expect(first.setCookie).toContain('Max-Age=2')
        expect((await rawGet(server.url, '/ui/', first.cookie)).status).toBe(200)
        await new Promise((resolve) => setTimeout(resolve, 3000))
        expect(await rawGet(server.url, '/ui/', first.cookie)).toMatchObject({ status: 303, location: '/ui/login' })

        const second = await signIn(server.url, 'key-d')
        const out = await fetch(`${server.url}/ui/logout`, { method: 'POST', redirect: 'manual', headers: { cookie: second.cookie ?? '' } })
        expect(out.status).toBe(303)
        expect(out.headers.get('set-cookie')).toMatch(/^mk_ui_session=; Path=\/ui; Max-Age=0/)
      } finally {
        await server.stop()
        await workspace.cleanup()
      }
    },
    slow,
  )
})
