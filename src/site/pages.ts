import { html, Html, type HtmlPart } from './html.js'
import { markdownToHtml } from './markdown-html.js'
import type { SiteData, SiteItem } from './model.js'
import { graphSvg } from './graph-svg.js'

export type Section = 'log' | 'graph' | 'constraints' | 'memories' | 'adherence' | 'item'

function statusClass(status: string): string {
  return `badge status-${status.replace(/[^a-z]/g, '-')}`
}

/** Every page's frame: a skip link, the header landmark with the navigation, main, footer. `root` leads back to the site's top folder. */
export function layout(data: SiteData, options: { title: string; root: string; section: Section; body: Html; wide?: boolean; scripts?: string[] }): string {
  const link = (section: Section, href: string, label: string): Html =>
    html`<li><a href="${options.root}${href}" ${section === options.section ? html` aria-current="page"` : ''}>${label}</a></li>`
  // Pages only some builds have (--memories, adherence data) are linked only when they exist.
  const optionalLinks = [
    data.memories === undefined ? '' : link('memories', 'memories.html', 'Memories'),
    data.adherence === undefined ? '' : link('adherence', 'adherence.html', 'Adherence'),
  ]
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta
          http-equiv="Content-Security-Policy"
          content="default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"
        />
        <title>${options.title} · ${data.title}</title>
        <link rel="stylesheet" href="${options.root}assets/site.css" />
      </head>
      <body>
        <a class="skip" href="#content">Skip to content</a>
        <header class="site">
          <a class="brand" href="${options.root}index.html">${data.title}</a>
          <nav aria-label="Site">
            <ul>
              ${link('log', 'index.html', 'Decision log')}${link('graph', 'graph.html', 'Graph')}${link('constraints', 'constraints.html', 'Constraints')}${optionalLinks}
            </ul>
          </nav>
        </header>
        <main id="content" ${options.wide === true ? html` class="wide"` : ''}>${options.body}</main>
        <footer>Built by mk on ${data.builtAt.slice(0, 16).replace('T', ' ')} UTC from ${data.items.length} knowledge items.</footer>
        ${(options.scripts ?? []).map((script) => html`<script src="${options.root}${script}"></script>`)}
      </body>
    </html> `
  return page.value
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort()
}

function select(name: string, label: string, values: readonly string[]): Html {
  return html`<label
    >${label}<select name="${name}">
      <option value="">All</option>
      ${values.map((value) => html`<option>${value}</option>`)}
    </select></label
  >`
}

/** Newest first; undated items last, by id. */
export function byDate(items: readonly SiteItem[]): SiteItem[] {
  return [...items].sort((a, b) => (b.item.date ?? '').localeCompare(a.item.date ?? '') || a.item.id.localeCompare(b.item.id))
}

export function logPage(data: SiteData): string {
  const items = byDate(data.items)
  const row = ({ item, page, violations }: SiteItem): Html =>
    html`<tr data-id="${item.id}" data-type="${item.type}" data-status="${item.status}" data-layer="${item.layer}">
      <td>${item.date ?? '—'}</td>
      <td><a href="items/${page}">${item.title}</a><br /><span class="meta">${item.id}</span></td>
      <td>${item.type}</td>
      <td><span class="${statusClass(item.status)}">${item.status}</span></td>
      <td>${item.layer}</td>
      <td class="count">${violations.length}</td>
    </tr>`
  // The timeline: one table body per year, newest first, headed by its year; undated items last.
  const years = new Map<string, SiteItem[]>()
  for (const site of items) {
    const year = /^\d{4}/.exec(site.item.date ?? '')?.[0] ?? 'Undated'
    years.set(year, [...(years.get(year) ?? []), site])
  }
  const groups = [...years].map(
    ([year, members]) =>
      html`<tbody class="year" data-year="${year}">
        <tr class="year-heading">
          <th colspan="6" scope="colgroup">${year}</th>
        </tr>
        ${members.map(row)}
      </tbody>`,
  )
  const body = html`<h1>Decision log</h1>
    <p class="meta">
      Every knowledge item, newest first. ${data.totalViolations} current violation${data.totalViolations === 1 ? '' : 's'} of their constraints.
    </p>
    <form id="filters" class="filters" role="search" aria-label="Filter the decision log">
      <label>Search<input type="search" name="q" autocomplete="off" placeholder="words in title, text, tags" /></label>
      ${select('type', 'Type', distinct(items.map(({ item }) => item.type)))} ${select('status', 'Status', distinct(items.map(({ item }) => item.status)))}
      ${select('layer', 'Layer', distinct(items.map(({ item }) => item.layer)))}
    </form>
    <p id="result-count" role="status" aria-live="polite">${items.length} items</p>
    <table id="log">
      <caption class="skip">
        Knowledge items
      </caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Title</th>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col">Layer</th>
          <th scope="col">Violations</th>
        </tr>
      </thead>
      ${groups}
    </table>`
  return layout(data, { title: 'Decision log', root: '', section: 'log', body, scripts: ['assets/search-index.js', 'assets/log.js'] })
}

function relationList(label: string, ids: readonly string[], pages: ReadonlyMap<string, SiteItem>): HtmlPart {
  if (ids.length === 0) return undefined
  return html`<dt>${label}</dt>
    <dd>
      <ul>
        ${ids.map((id) => {
          const target = pages.get(id)
          return target === undefined
            ? html`<li>${id} <span class="meta">(not on this site)</span></li>`
            : html`<li>
                <a href="${target.page}" rel="${label === 'Supersedes' ? 'prev' : label === 'Superseded by' ? 'next' : 'related'}">${target.item.title}</a>
                <span class="meta">${id}</span>
              </li>`
        })}
      </ul>
    </dd>`
}

export function itemPage(data: SiteData, site: SiteItem, pages: ReadonlyMap<string, SiteItem>, fileNames: ReadonlyMap<string, string>): string {
  const { item } = site
  const resolveLink = (href: string): string | undefined => {
    const file = href.split('#')[0]?.split('/').at(-1)
    const target = file === undefined ? undefined : fileNames.get(file)
    return target === undefined ? undefined : pages.get(target)?.page
  }
  const constraints = item.constraints.map((constraint) => {
    const violations = site.violations.filter((violation) => violation.constraintId === constraint.id)
    return html`<li>
      <strong>${constraint.id}</strong>: ${constraint.operator} ${constraint.target}
      <code>${constraint.pattern ?? ''}</code>${constraint.paths.length > 0 ? html` in <code>${constraint.paths.join(', ')}</code>` : ''}
      <p>${constraint.message ?? ''}</p>
      ${
        violations.length === 0
          ? html`<p class="meta">No current violation.</p>`
          : html`<ul class="violations">
              ${violations.map((violation) => html`<li class="violation-${violation.severity}"><code class="violation-file">${violation.file}:${violation.line}</code> ${violation.severity}: ${violation.message}</li>`)}
            </ul>`
      }
    </li>`
  })
  const history =
    site.history === undefined
      ? html`<p class="meta">Not in a git repository mk can read.</p>`
      : site.history.length === 0
        ? html`<p class="meta">Not committed yet.</p>`
        : html`<ol class="history">
            ${site.history.map((version) => html`<li><code>${version.version}</code> ${version.timestamp.slice(0, 10)} ${version.author}: ${version.message.split('\n')[0] ?? ''}</li>`)}
          </ol>`
  const body = html`<article>
    <h1>${item.title}</h1>
    <dl class="facts">
      <dt>Status</dt>
      <dd><span class="${statusClass(item.status)}">${item.status}</span></dd>
      <dt>Type</dt>
      <dd>${item.type}</dd>
      <dt>Layer</dt>
      <dd>${item.layer}</dd>
      <dt>Date</dt>
      <dd>${item.date ?? '—'}</dd>
      <dt>Id</dt>
      <dd><code>${item.id}</code></dd>
      <dt>File</dt>
      <dd><code>${item.path}</code></dd>
      ${
        item.tags.length > 0
          ? html`<dt>Tags</dt>
              <dd>${item.tags.join(', ')}</dd>`
          : ''
      }
      ${relationList('Supersedes', item.supersedes, pages)}${relationList('Superseded by', item.supersededBy, pages)}${relationList('Relates to', site.relatesTo, pages)}
    </dl>
    <section aria-labelledby="text">
      <h2 id="text" class="skip">Text</h2>
      ${new Html(markdownToHtml(item.body, resolveLink))}
    </section>
    ${
      item.constraints.length > 0
        ? html`<section aria-labelledby="constraints">
            <h2 id="constraints">Constraints and current violations</h2>
            ${data.checkProblem === undefined ? '' : html`<p class="meta">The check did not run: ${data.checkProblem}</p>`}
            <ul>
              ${constraints}
            </ul>
          </section>`
        : ''
    }
    <section aria-labelledby="history">
      <h2 id="history">History</h2>
      ${history}
    </section>
  </article>`
  return layout(data, { title: item.title, root: '../', section: 'item', body })
}

export function graphPage(data: SiteData): string {
  const body = html`<h1>Graph</h1>
    <p class="meta">
      Each box is a knowledge item, coloured by status; an arrow points from an item to the one it supersedes (the older above), a dashed line joins items whose
      text names each other. Every box is a link: Tab moves between them.
    </p>
    <div class="graph-wrap">${graphSvg(data.items, 'items/')}</div>`
  return layout(data, { title: 'Graph', root: '', section: 'graph', body, wide: true })
}

function bars(title: string, counts: ReadonlyMap<string, number>): Html {
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  const max = Math.max(1, ...entries.map(([, count]) => count))
  return html`<section aria-labelledby="${title.replace(/\W+/g, '-').toLowerCase()}">
    <h2 id="${title.replace(/\W+/g, '-').toLowerCase()}">${title}</h2>
    ${
      entries.length === 0
        ? html`<p class="meta">No current violation.</p>`
        : html`<ul class="bars">
            ${entries.map(
              ([label, count]) =>
                html`<li>
                  <span>${label}</span
                  ><svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                    <rect width="${Math.max(1, Math.round((100 * count) / max))}" height="10"></rect></svg
                  ><span class="count">${count}</span>
                </li>`,
            )}
          </ul>`
    }
  </section>`
}

/** The baseline's count per commit as columns, oldest left, with the same figures in a table for screen readers and print. */
function baselineChart(points: SiteData['baselineHistory']): Html {
  if (points === undefined)
    return html`<section aria-labelledby="baseline">
      <h2 id="baseline">Baseline over time</h2>
      <p class="meta">No baseline file in the git history.</p>
    </section>`
  const max = Math.max(1, ...points.map((point) => point.count))
  const width = 12
  const height = 120
  const columns = points.map((point, index) => {
    const barHeight = Math.max(1, Math.round((height * point.count) / max))
    return html`<rect x="${index * width + 1}" y="${height - barHeight}" width="${width - 2}" height="${barHeight}"
      ><title>${point.date} ${point.version}: ${point.count}</title></rect
    >`
  })
  const first = points[0]
  const last = points.at(-1)
  const trend = first === undefined || last === undefined ? '' : last.count < first.count ? 'falling' : last.count > first.count ? 'rising' : 'flat'
  return html`<section aria-labelledby="baseline">
    <h2 id="baseline">Baseline over time</h2>
    <p>
      Violations the committed baseline tolerated, at each of the ${points.length} commits that changed it: ${first?.count ?? 0} then, ${last?.count ?? 0} now
      (${trend}).
    </p>
    <svg
      class="columns"
      viewBox="0 0 ${points.length * width} ${height}"
      width="${Math.min(720, points.length * width * 2)}"
      height="${height}"
      aria-hidden="true"
    >
      ${columns}
    </svg>
    <table class="baseline-table">
      <caption class="skip">
        Baseline count per commit
      </caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Commit</th>
          <th scope="col">Tolerated violations</th>
        </tr>
      </thead>
      <tbody>
        ${[...points].reverse().map(
          (point) =>
            html`<tr>
              <td>${point.date}</td>
              <td><code>${point.version}</code></td>
              <td class="count">${point.count}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`
}

export function constraintsPage(data: SiteData): string {
  const byConstraint = new Map<string, number>()
  const byFolder = new Map<string, number>()
  for (const { item, violations } of data.items) {
    for (const violation of violations) {
      const key = `${item.id} / ${violation.constraintId}`
      byConstraint.set(key, (byConstraint.get(key) ?? 0) + 1)
      const folder = violation.file.includes('/') ? violation.file.slice(0, violation.file.lastIndexOf('/')) : '.'
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1)
    }
  }
  const body = html`<h1>Constraints</h1>
    ${data.checkProblem === undefined ? '' : html`<p>The check did not run: ${data.checkProblem}</p>`}
    <p class="meta">${data.totalViolations} current violation${data.totalViolations === 1 ? '' : 's'}, counted by the check run when the site was built.</p>
    ${bars('Violations by constraint', byConstraint)} ${bars('Violations by folder', byFolder)} ${baselineChart(data.baselineHistory)}`
  return layout(data, { title: 'Constraints', root: '', section: 'constraints', body })
}
