import { expect } from 'vitest'
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'

export const chromiumPath = '/usr/bin/chromium'
export const artifactsDir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url))

/** Why browser tests cannot run here, printed by the test file (never a silent skip); undefined when they can. */
export function browserSkipReason(): string | undefined {
  return existsSync(chromiumPath) ? undefined : `browser tests skipped: ${chromiumPath} is missing (apt-get install -y chromium)`
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-background-networking'] })
}

export interface WatchedPage {
  page: Page
  /** Console errors and uncaught exceptions. */
  errors: string[]
  /** Requests that went (or tried to go) anywhere but 127.0.0.1: every one is aborted. */
  offMachine: string[]
  /** Same-origin responses with a status of 400 or more. */
  failed: string[]
  close(): Promise<void>
}

const local = /^(https?:\/\/127\.0\.0\.1(:\d+)?\/|data:|about:|blob:)/

/** A page in a fresh context that routes every request: anything not on 127.0.0.1 is aborted and recorded. */
export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  // The site's CSP allows only its own scripts; axe-core is injected inline by the test, so the test context bypasses it.
  const context = await browser.newContext({ bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  const offMachine: string[] = []
  const failed: string[] = []
  await context.route('**/*', async (route) => {
    const url = route.request().url()
    if (local.test(url)) await route.continue()
    else {
      offMachine.push(url)
      await route.abort('blockedbyclient')
    }
  })
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
  })
  return { page, errors, offMachine, failed, close: () => context.close() }
}

/**
 * Runs `work` on a watched page and then requires that the page stayed clean: no console error,
 * no failed request, nothing requested off the machine. The page closes whatever happens.
 */
export async function onCleanPage(browser: Browser, work: (watched: WatchedPage) => Promise<void>): Promise<void> {
  const watched = await watchedPage(browser)
  try {
    await work(watched)
    expect({ errors: watched.errors, failed: watched.failed, offMachine: watched.offMachine }).toEqual({ errors: [], failed: [], offMachine: [] })
  } finally {
    await watched.close()
  }
}

const require = createRequire(import.meta.url)
let axeSource: string | undefined

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8')
  await page.addScriptTag({ content: axeSource })
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe
    return (await axe.run()).violations
  })
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => ({ target: node.target })),
    }))
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = join(artifactsDir, 'site')
  await mkdir(folder, { recursive: true })
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true })
}
