import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveSite, type StaticSite } from '../../src/site/static-server.js'
import { browserSkipReason, launchChromium, onCleanPage, screenshot, seriousAxeViolations } from '../helpers/browser.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const skipReason = browserSkipReason()
if (skipReason !== undefined) console.warn(skipReason)

const slow = 180_000
const adr = [
  '---',
  'id: adr-0001-release-train',
  'type: adr',
  'title: Ship on a release train',
  'status: accepted',
  'date: 2026-02-01',
  '---',
  '# Ship on a release train',
  '',
  'Every Thursday.',
  '',
].join('\n')

describe('mk site build --memories', () => {
  let workspace: TempWorkspace
  let browser: Browser | undefined
  let site: StaticSite | undefined
  const as = (agent: string) => ({ cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: agent } })
  async function mk(agent: string, args: string[]): Promise<void> {
    const run = await runMk(args, as(agent))
    expect(run.exitCode, `${args.join(' ')}: ${run.stderr}${run.stdout}`).toBe(0)
  }
  async function build(agent: string, out: string): Promise<string> {
    const run = await runMk(['site', 'build', '--memories', '--out', out, '--json'], as(agent))
    expect(run.exitCode, run.stderr).toBe(0)
    const built = parseJson<{ out: string }>(run)
    return readFile(join(built.out, 'memories.html'), 'utf8')
  }

  beforeAll(async () => {
    workspace = await makeWorkspace({ 'knowledge/adr/adr-0001-release-train.md': adr })
    await mk('alice', ['memory', 'add', 'Deploys go through the staging cluster first', '--layer', 'project'])
    await mk('alice', ['memory', 'add', 'Alice keeps her release checklist in the wiki', '--layer', 'agent'])
    await mk('bob', ['memory', 'add', 'Bob rotates the vault token on Mondays', '--layer', 'agent'])
    await mk('bob', ['memory', 'add', 'The acquisition codename is Falcon', '--layer', 'project', '--lane', 'private', '--owner-agent', 'bob'])
    await mk('alice', [
      'tools',
      'call',
      'create_entities',
      '--input',
      JSON.stringify({
        entities: [
          { name: 'Ledger service', entityType: 'service', observations: ['Writes to Postgres'] },
          { name: 'Billing team', entityType: 'team', observations: ['Owns the ledger'] },
        ],
      }),
    ])
    await mk('alice', [
      'tools',
      'call',
      'create_relations',
      '--input',
      JSON.stringify({ relations: [{ from: 'Billing team', to: 'Ledger service', relationType: 'owns' }] }),
    ])
  }, slow)

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await workspace?.cleanup()
  })

  it(
    'shows the builder’s layers and the shared ones, with the graph, and never another agent’s private memories',
    async () => {
      const page = await build('alice', join(workspace.root, 'site-alice'))
      for (const text of [
        'Deploys go through the staging cluster first',
        'Alice keeps her release checklist',
        'Ledger service',
        'Billing team',
        'Writes to Postgres',
        'owns',
      ])
        expect(page, text).toContain(text)
      expect(page).not.toContain('vault token')
      expect(page).not.toContain('Falcon')
      const index = await readFile(join(workspace.root, 'site-alice', 'index.html'), 'utf8')
      expect(index).toContain('memories.html')
    },
    slow,
  )

  it(
    'shows each agent its own private memories: what bob builds has his, not alice’s',
    async () => {
      const page = await build('bob', join(workspace.root, 'site-bob'))
      expect(page).toContain('vault token')
      expect(page).toContain('Falcon')
      expect(page).not.toContain('release checklist')
    },
    slow,
  )

  it(
    'leaves memories out unless asked',
    async () => {
      const run = await runMk(['site', 'build', '--out', join(workspace.root, 'site-plain'), '--json'], as('alice'))
      expect(run.exitCode, run.stderr).toBe(0)
      await expect(readFile(join(workspace.root, 'site-plain', 'memories.html'), 'utf8')).rejects.toThrow()
      expect(await readFile(join(workspace.root, 'site-plain', 'index.html'), 'utf8')).not.toContain('memories.html')
    },
    slow,
  )

  it.skipIf(skipReason !== undefined)(
    'draws the memory graph in Chromium: links to each entity, accessible',
    async () => {
      site = await serveSite(join(workspace.root, 'site-alice'))
      browser = await launchChromium()
      await onCleanPage(browser, async ({ page }) => {
        await page.goto(`${site?.url}index.html`)
        await page.getByRole('link', { name: 'Memories' }).click()
        await page.waitForURL(/memories\.html$/)
        expect(await page.locator('svg.graph a.node').count()).toBe(2)
        await page.locator('svg.graph a.node').first().focus()
        await page.keyboard.press('Enter')
        // The link's navigation lands after the key press returns: wait for it, do not read the URL at once.
        await page.waitForURL(/#f\d+-e\d+$/)
        expect(new URL(page.url()).hash).toMatch(/^#f\d+-e\d+$/)
        expect(await seriousAxeViolations(page)).toEqual([])
        await screenshot(page, 'memories')
      })
    },
    slow,
  )
})
