import { html, type Html } from './html.js'
import type { SiteAdherence, SiteData, SiteItem } from './model.js'
import { layout } from './pages.js'

function itemLink(id: string, pages: ReadonlyMap<string, SiteItem>): Html {
  const target = pages.get(id)
  return target === undefined ? html`${id}` : html`<a href="items/${target.page}">${target.item.title}</a> <span class="meta">${id}</span>`
}

/** A bar as wide as its share of the largest count, beside the figure (the table keeps the figures for screen readers and print). */
function bar(count: number, max: number): Html {
  return html`<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
    <rect width="${Math.max(count === 0 ? 0 : 1, Math.round((100 * count) / Math.max(1, max)))}" height="10"></rect>
  </svg>`
}

/** How the rules fared in agent sessions: per constraint the attempts to break it, the hook's refusals and what is in the tree; per directive how often it was served. */
export function adherencePage(data: SiteData, adherence: SiteAdherence, pages: ReadonlyMap<string, SiteItem>): string {
  const constraints = [...adherence.constraints].sort((a, b) => b.attempts - a.attempts || a.constraintId.localeCompare(b.constraintId))
  const directives = [...adherence.directives].sort((a, b) => b.served - a.served || a.directiveId.localeCompare(b.directiveId))
  const maxAttempts = Math.max(0, ...constraints.map((row) => row.attempts))
  const maxServed = Math.max(0, ...directives.map((row) => row.served))
  const body = html`<h1>Agent adherence</h1>
    <p class="meta">
      From ${adherence.transcripts} Claude Code session transcript${adherence.transcripts === 1 ? '' : 's'} of this project (${adherence.toolCalls} tool calls),
      as <code>mk rules adherence</code> reads them: an attempt is a file-writing tool call that would have added a violation; denied is how many the hook
      refused.
    </p>
    <section aria-labelledby="by-constraint">
      <h2 id="by-constraint">Constraints</h2>
      ${
        constraints.length === 0
          ? html`<p class="meta">No attempt to break a constraint.</p>`
          : html`<table class="adherence">
              <caption class="skip">
                Attempts, refusals and violations in the tree per constraint
              </caption>
              <thead>
                <tr>
                  <th scope="col">Constraint</th>
                  <th scope="col">Decision</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Denied</th>
                  <th scope="col">In the tree</th>
                </tr>
              </thead>
              <tbody>
                ${constraints.map(
                  (row) =>
                    html`<tr>
                      <td><code>${row.constraintId}</code></td>
                      <td>${itemLink(row.knowledgeItemId, pages)}</td>
                      <td class="count">${bar(row.attempts, maxAttempts)} ${row.attempts}</td>
                      <td class="count">${row.denied}</td>
                      <td class="count">${row.inTree}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>
    <section aria-labelledby="by-directive">
      <h2 id="by-directive">Directives served</h2>
      ${
        directives.length === 0
          ? html`<p class="meta">No directive was served in these sessions.</p>`
          : html`<table class="adherence">
              <caption class="skip">
                How often each directive was served
              </caption>
              <thead>
                <tr>
                  <th scope="col">Directive</th>
                  <th scope="col">Decision</th>
                  <th scope="col">Served</th>
                </tr>
              </thead>
              <tbody>
                ${directives.map(
                  (row) =>
                    html`<tr>
                      <td><code>${row.directiveId}</code></td>
                      <td>${itemLink(row.itemId, pages)}</td>
                      <td class="count">${bar(row.served, maxServed)} ${row.served}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>`
  return layout(data, { title: 'Agent adherence', root: '', section: 'adherence', body })
}
