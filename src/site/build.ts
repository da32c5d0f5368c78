import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { MkError } from '../errors.js'
import { logScript, stylesheet } from './assets.js'
import type { SiteData, SiteItem } from './model.js'
import { adherencePage } from './adherence-page.js'
import { memoriesPage } from './memory-page.js'
import { constraintsPage, graphPage, itemPage, logPage } from './pages.js'

/** Marks a folder as one mk built, so a rebuild may replace it and never clears a folder it did not make. */
const markerName = '.mk-site'

export interface BuiltSite {
  out: string
  pages: number
  /** Bytes of the decision log page with everything it loads (stylesheet, scripts, index). */
  indexWeight: number
  totalBytes: number
}

/** What the marker of a built folder records: what the site was built from, and what the build reported. */
interface SiteMarker {
  fingerprint: string
  built: Omit<BuiltSite, 'out'> & { items: number; violations: number }
}

const markerNote = 'Built by mk site build; the next build replaces this folder.'

/** Lower-case words of an item's id, title, summary, tags and text, deduplicated: what the search box matches. */
function searchText(site: SiteItem): string {
  const { item } = site
  const text = [item.id, item.title, item.summary ?? '', item.tags.join(' '), item.type, item.status, item.body].join(' ').toLowerCase()
  return [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 1))].join(' ')
}

/** The fingerprint and figures of the site an earlier build wrote into `out`, if it recorded them. */
export async function builtSite(out: string): Promise<SiteMarker | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(out, markerName), 'utf8')) as Partial<SiteMarker>
    return typeof marker.fingerprint === 'string' && typeof marker.built === 'object' ? (marker as SiteMarker) : undefined
  } catch {
    // No marker, or one an older mk wrote as plain text: the site is built again.
    return undefined
  }
}

async function prepareFolder(out: string): Promise<void> {
  const entries = await readdir(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (entries === undefined) {
    await mkdir(out, { recursive: true })
  } else if (entries.length > 0 && !entries.includes(markerName)) {
    throw new MkError('CONFLICT', `${out} is not empty and was not built by mk site build; refusing to write into it`, {
      details: { path: out, hint: 'give --out an empty or new folder, or the folder of an earlier mk site build' },
    })
  } else {
    for (const entry of entries) await rm(join(out, entry), { recursive: true, force: true })
  }
  // Written first, so a build that stops half way still leaves a folder the next build may replace.
  await writeFile(join(out, markerName), `${markerNote}\n`)
}

/** Writes the site into `out`: the log, a page per item, the graph, the constraint map and their assets. */
export async function writeSite(data: SiteData, out: string, fingerprint: string): Promise<BuiltSite> {
  await prepareFolder(out)
  const byId = new Map(data.items.map((site) => [site.item.id, site]))
  const fileNames = new Map(data.items.map((site) => [site.item.path.split('/').at(-1) ?? site.item.path, site.item.id]))
  const index = Object.fromEntries(data.items.map((site) => [site.item.id, searchText(site)]))
  const files = new Map<string, string>([
    ['index.html', logPage(data)],
    ['graph.html', graphPage(data)],
    ['constraints.html', constraintsPage(data)],
    ['assets/site.css', stylesheet],
    ['assets/log.js', logScript],
    // A script, not JSON: fetch() of a local file is refused under file://, a script tag is not.
    ['assets/search-index.js', `window.MK_SEARCH_INDEX = ${JSON.stringify(index).replace(/</g, '\\u003c')};\n`],
  ])
  if (data.memories !== undefined) files.set('memories.html', memoriesPage(data))
  if (data.adherence !== undefined) files.set('adherence.html', adherencePage(data, data.adherence, byId))
  for (const site of data.items) files.set(`items/${site.page}`, itemPage(data, site, byId, fileNames))
  let totalBytes = 0
  for (const [path, content] of files) {
    const target = join(out, path)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, content)
    totalBytes += Buffer.byteLength(content)
  }
  const weights = await Promise.all(
    ['index.html', 'assets/site.css', 'assets/log.js', 'assets/search-index.js'].map(async (path) => (await stat(join(out, path))).size),
  )
  const built = { out, pages: files.size - 3, indexWeight: weights.reduce((sum, size) => sum + size, 0), totalBytes }
  const marker: SiteMarker & { note: string } = {
    note: markerNote,
    fingerprint,
    built: { pages: built.pages, indexWeight: built.indexWeight, totalBytes, items: data.items.length, violations: data.totalViolations },
  }
  // The fingerprint is written last: a build that stopped half way is never reused.
  await writeFile(join(out, markerName), `${JSON.stringify(marker, null, 2)}\n`)
  return built
}
