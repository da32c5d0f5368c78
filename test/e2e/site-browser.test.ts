import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serveSite, type StaticSite } from '../../src/site/static-server.js'
import { browserSkipReason, launchChromium, onCleanPage, screenshot, seriousAxeViolations, watchedPage, type WatchedPage } from '../helpers/browser.js'
import { parseJson, runMk } from '../helpers/mk.js'
import { gitCommitAll, gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { siteRepo } from '../fixtures/site-repo.js'

const skipReason = browserSkipReason()
if (skipReason !== undefined) console.warn(skipReason)

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
// Room for Chromium to start and crawl every page on a busy machine. Building the site of mk's own knowledge,
// every item's history included, takes about 3 s of CPU at 1,037 commits (one history walk, src/git/history-walk.ts).
const slow = 180_000

interface Built {
  out: string
  items: number
  pages: number
  violations: number
  indexWeight: number
}

/** Builds the site of a workspace with the built mk, serves it on 127.0.0.1. */
async function buildAndServe(cwd: string, mkHome: string, out: string): Promise<{ built: Built; site: StaticSite }> {
  const run = await runMk(['site', 'build', '--out', out, '--json'], { cwd, env: { MK_HOME: mkHome } })
  expect(run.exitCode, run.stderr).toBe(0)
  const built = parseJson<Built>(run)
  return { built, site: await serveSite(built.out) }
}

/** Every page reachable from the log, each checked: no console error, no failed or off-machine request, no link to a missing page. */
async function crawl(watched: WatchedPage, start: string): Promise<{ broken: string[]; pages: number }> {
  const seen = new Set<string>()
  const queue = [start]
  const broken: string[] = []
  const { origin } = new URL(start)
  while (queue.length > 0) {
    const url = queue.shift() ?? ''
    if (seen.has(url)) continue
    seen.add(url)
    const response = await watched.page.goto(url)
    if (response === null || response.status() >= 400) {
      broken.push(`${response?.status() ?? 'no response'} ${url}`)
      continue
    }
    // getAttribute, not .href: an SVG link's href is an SVGAnimatedString.
    const hrefs = await watched.page.$$eval('a[href]', (anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''))
    for (const href of hrefs) {
      const target = new URL(href, url)
      target.hash = ''
      if (target.origin === origin && !seen.has(target.href)) queue.push(target.href)
    }
  }
  return { broken, pages: seen.size }
}

describe.skipIf(skipReason !== undefined)('the knowledge site of an adr-tools project, in Chromium', () => {
  let workspace: TempWorkspace
  let browser: Browser
  let site: StaticSite
  let built: Built

  beforeAll(async () => {
    workspace = await makeWorkspace(siteRepo)
    await gitInit(workspace.root)
    await gitCommitAll(workspace.root, 'Record the ledger decisions')
    ;({ built, site } = await buildAndServe(workspace.root, workspace.mkHome, join(workspace.root, 'public', 'site')))
    browser = await launchChromium()
  }, slow)

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await workspace?.cleanup()
  })

  it('builds a page per item and counts the violation', () => {
    expect(built.items).toBe(6)
    expect(built.pages).toBe(9)
    expect(built.violations).toBe(1)
  })

  it(
    'shows the decision log with every item, and search and filters narrow it',
    () =>
      onCleanPage(browser, async (watched) => {
        const { page } = watched
        await page.goto(site.url)
        await expect.poll(() => page.locator('#log tbody tr[data-id]:visible').count()).toBe(6)
        const years = async (): Promise<string[]> => (await page.locator('#log tr.year-heading:visible').allTextContents()).map((text) => text.trim())
        expect(await years()).toEqual(['2025', '2024', '2023', 'Undated'])
        await page.getByLabel('Search').fill('replication')
        await expect.poll(() => page.locator('#log tbody tr[data-id]:visible').count()).toBe(1)
        expect(await page.locator('#log tbody tr[data-id]:visible a').textContent()).toBe('Store ledger entries in PostgreSQL')
        await page.getByLabel('Search').fill('')
        await page.getByLabel('Status').selectOption('superseded')
        await expect.poll(() => page.locator('#log tbody tr[data-id]:visible').count()).toBe(1)
        expect(await page.locator('#result-count').textContent()).toBe('1 of 6 items shown')
        expect(await years()).toEqual(['2023'])
        await page.getByLabel('Status').selectOption('')
        await screenshot(page, 'adr-tools-log')
        expect(await seriousAxeViolations(page)).toEqual([])
      }),
    slow,
  )

  it(
    'links superseded and superseding decisions both ways, and related ones',
    () =>
      onCleanPage(browser, async (watched) => {
        const { page } = watched
        await page.goto(site.url)
        await page.getByRole('link', { name: 'Store ledger entries in SQLite' }).click()
        await expect.poll(() => page.locator('h1').textContent()).toBe('Store ledger entries in SQLite')
        await page.locator('dl.facts').getByRole('link', { name: 'Store ledger entries in PostgreSQL' }).click()
        await expect.poll(() => page.locator('h1').textContent()).toBe('Store ledger entries in PostgreSQL')
        expect(await page.locator('dt', { hasText: 'Supersedes' }).count()).toBe(1)
        await expect.poll(() => page.locator('dt:has-text("Relates to") + dd').textContent()).toContain('Money as integer minor units')
        expect(await page.locator('.history li').count()).toBe(1)
        await screenshot(page, 'adr-tools-item')
        expect(await seriousAxeViolations(page)).toEqual([])
      }),
    slow,
  )

  it(
    'shows a violation with its file and line on the policy page and the constraint map',
    () =>
      onCleanPage(browser, async (watched) => {
        const { page } = watched
        await page.goto(`${site.url}items/no-float-money.html`)
        expect(await page.locator('.violation-file').allTextContents()).toEqual(['src/ledger/import.ts:2'])
        await page.goto(`${site.url}constraints.html`)
        const bars = await page.locator('.bars li').allTextContents()
        expect(bars.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(['no-float-money / no-parse-float 1', 'src/ledger 1'])
        await screenshot(page, 'adr-tools-constraints')
        expect(await seriousAxeViolations(page)).toEqual([])
      }),
    slow,
  )

  it(
    'draws the graph with a link per item, reachable from the keyboard',
    () =>
      onCleanPage(browser, async (watched) => {
        const { page } = watched
        await page.goto(`${site.url}graph.html`)
        expect(await page.locator('svg.graph a.node').count()).toBe(6)
        expect(await page.locator('svg.graph path.edge-supersedes').count()).toBe(1)
        const older = await page.locator('a.node[data-id="0002-store-ledger-entries-in-sqlite"] rect').getAttribute('y')
        const newer = await page.locator('a.node[data-id="0004-store-ledger-entries-in-postgresql"] rect').getAttribute('y')
        expect(Number(older)).toBeLessThan(Number(newer))
        await screenshot(page, 'adr-tools-graph')
        expect(await seriousAxeViolations(page)).toEqual([])
        await page.locator('a.node[data-id="0003-money-as-integer-minor-units"]').focus()
        await page.keyboard.press('Enter')
        await expect.poll(() => page.locator('h1').textContent()).toBe('Money as integer minor units')
      }),
    slow,
  )

  it(
    'has no broken link, console error or request off the machine on any page',
    () =>
      onCleanPage(browser, async (watched) => {
        expect(await crawl(watched, `${site.url}index.html`)).toEqual({ broken: [], pages: built.pages })
      }),
    slow,
  )
  it(
    'keeps its contrast in dark mode and drops the navigation when printed',
    () =>
      onCleanPage(browser, async (watched) => {
        const { page } = watched
        await page.emulateMedia({ colorScheme: 'dark' })
        for (const path of ['index.html', 'items/0004-store-ledger-entries-in-postgresql.html', 'graph.html']) {
          await page.goto(`${site.url}${path}`)
          expect(await seriousAxeViolations(page), path).toEqual([])
        }
        expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(15, 20, 25)')
        await screenshot(page, 'adr-tools-graph-dark')
        await page.emulateMedia({ media: 'print', colorScheme: 'light' })
        await page.goto(`${site.url}index.html`)
        expect(await page.locator('nav').isVisible()).toBe(false)
        expect(await page.locator('#filters').isVisible()).toBe(false)
      }),
    slow,
  )

  it(
    'catches a request off the machine (the guard the other tests rely on)',
    async () => {
      const watched = await watchedPage(browser)
      await watched.page.goto(`${site.url}index.html`)
      await watched.page.evaluate(() => fetch('http://example.com/tracker.gif').catch(() => undefined))
      expect(watched.offMachine).toEqual(['http://example.com/tracker.gif'])
      await watched.close()
    },
    slow,
  )
})

describe.skipIf(skipReason !== undefined)("the knowledge site of mk's own knowledge/, in Chromium", () => {
  let workspace: TempWorkspace
  let browser: Browser
  let site: StaticSite
  let built: Built

  beforeAll(async () => {
    workspace = await makeWorkspace()
    ;({ built, site } = await buildAndServe(repoRoot, workspace.mkHome, join(workspace.mkHome, 'site')))
    browser = await launchChromium()
  }, slow)

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await workspace?.cleanup()
  })

  it(
    'has every page reachable, accessible, and nothing loaded off the machine',
    () =>
      onCleanPage(browser, async (watched) => {
        const { page } = watched
        expect(await crawl(watched, `${site.url}index.html`)).toEqual({ broken: [], pages: built.pages })
        for (const path of ['', 'graph.html', 'constraints.html', 'items/policy-layering.html']) {
          await page.goto(`${site.url}${path}`)
          expect(await seriousAxeViolations(page), path).toEqual([])
        }
        await page.goto(site.url)
        await screenshot(page, 'mk-log')
        await page.goto(`${site.url}graph.html`)
        expect(await page.locator('svg.graph a.node').count()).toBeGreaterThan(25)
        await screenshot(page, 'mk-graph')
      }),
    slow,
  )
})
