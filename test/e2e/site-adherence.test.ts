import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveSite, type StaticSite } from '../../src/site/static-server.js'
import { browserSkipReason, launchChromium, onCleanPage, screenshot, seriousAxeViolations } from '../helpers/browser.js'
import { claudeFixtures, hookFiles, hookKnowledge } from '../helpers/hook-workspace.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { startServe } from '../helpers/serve.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const skipReason = browserSkipReason()
if (skipReason !== undefined) console.warn(skipReason)

const slow = 180_000

describe('agent adherence on the knowledge site', () => {
  let workspace: TempWorkspace
  let home: string
  let browser: Browser | undefined
  let site: StaticSite | undefined
  const env = (): Record<string, string> => ({ MK_HOME: workspace.mkHome, HOME: home })

  beforeAll(async () => {
    workspace = await makeWorkspace({ ...hookKnowledge, ...hookFiles })
    // Where Claude Code keeps this project's sessions: ~/.claude/projects/<the root with / and . as ->.
    home = join(workspace.root, 'home')
    const folder = join(home, '.claude', 'projects', workspace.root.replace(/[/\\.:]/g, '-'))
    await mkdir(folder, { recursive: true })
    const transcript = (await readFile(join(claudeFixtures, 'transcript.jsonl'), 'utf8')).replaceAll('"/repo', `"${workspace.root}`)
    await writeFile(join(folder, 'session.jsonl'), transcript)
  }, slow)

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await workspace?.cleanup()
  })

  it(
    'shows the attempts, refusals and violations per constraint and the directives served, from the project’s transcripts',
    async () => {
      const run = await runMk(['site', 'build', '--out', 'site', '--json'], { cwd: workspace.root, env: env() })
      expect(run.exitCode, run.stderr).toBe(0)
      const out = parseJson<{ out: string }>(run).out
      const page = await readFile(join(out, 'adherence.html'), 'utf8')
      expect(page).toContain('no-console-log')
      expect(page).toContain('3 tool')
      expect(page.replace(/\s+/g, ' ')).toMatch(/<td class="count">.*? 2<\/td> <td class="count">1<\/td> <td class="count">1<\/td>/)
      expect(page).toContain('href="items/')
      expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('adherence.html')
    },
    slow,
  )

  it(
    'has no adherence page without transcripts',
    async () => {
      const run = await runMk(['site', 'build', '--out', 'site-none', '--json'], {
        cwd: workspace.root,
        env: { MK_HOME: workspace.mkHome, HOME: join(workspace.root, 'nobody') },
      })
      expect(run.exitCode, run.stderr).toBe(0)
      expect(existsSync(join(workspace.root, 'site-none', 'adherence.html'))).toBe(false)
      expect(await readFile(join(workspace.root, 'site-none', 'index.html'), 'utf8')).not.toContain('adherence.html')
    },
    slow,
  )

  it(
    'never reads the server user’s transcripts for a call over mk serve',
    async () => {
      const server = await startServe({ cwd: workspace.root, env: env() })
      try {
        const built = await server.post('/v1/tools/site_build', { out: 'site-served' })
        expect(built.status).toBe(200)
        expect(existsSync(join(workspace.root, 'site-served', 'index.html'))).toBe(true)
        expect(existsSync(join(workspace.root, 'site-served', 'adherence.html'))).toBe(false)
      } finally {
        await server.stop()
      }
    },
    slow,
  )

  it.skipIf(skipReason !== undefined)(
    'reads well in Chromium: links to the decisions, accessible',
    async () => {
      site = await serveSite(join(workspace.root, 'site'))
      browser = await launchChromium()
      await onCleanPage(browser, async ({ page }) => {
        await page.goto(`${site?.url}index.html`)
        await page.getByRole('link', { name: 'Adherence' }).click()
        await page.waitForURL(/adherence\.html$/)
        expect(await page.locator('h1').textContent()).toBe('Agent adherence')
        expect(await seriousAxeViolations(page)).toEqual([])
        await screenshot(page, 'adherence')
        await page.getByRole('link', { name: 'Log through the logger' }).first().click()
        await page.waitForURL(/items\/.*\.html$/)
      })
    },
    slow,
  )
})
