import { describe, expect, it } from 'vitest'
import { markdownToHtml } from '../../../src/site/markdown-html.js'

const noLinks = (): undefined => undefined

describe('markdownToHtml', () => {
  it('renders headings under the page title, lists, code and emphasis', () => {
    const out = markdownToHtml('# Title\n\n## Context\n\nWe *chose* `remark`:\n\n- one\n- two\n\n```\ncode <b>\n```\n', noLinks)
    expect(out).not.toContain('Title')
    expect(out).toContain('<h2>Context</h2>')
    expect(out).toContain('<em>chose</em> <code>remark</code>')
    expect(out).toContain('<ul><li>one</li>')
    expect(out).toContain('<pre><code>code &#60;b&#62;</code></pre>')
  })

  it('never passes raw HTML, script links or images through', () => {
    const out = markdownToHtml('<script>alert(1)</script>\n\n[x](javascript:alert(1)) ![logo](https://example.com/a.png)\n', noLinks)
    expect(out).not.toContain('<script')
    expect(out).not.toContain('javascript:')
    expect(out).not.toContain('<img')
    expect(out).toContain('[image: logo]')
  })

  it('sends links to other items to their pages and keeps web links', () => {
    const out = markdownToHtml('See [ADR 2](0002-use-kafka.md) and [docs](https://example.com/x).', (href) =>
      href === '0002-use-kafka.md' ? 'use-kafka.html' : undefined,
    )
    expect(out).toContain('<a href="use-kafka.html">ADR 2</a>')
    expect(out).toContain('<a href="https://example.com/x">docs</a>')
  })

  // Issue 32: ADRs compare options in tables; they rendered as their pipes.
  it('renders GFM tables with header cells and alignment, task lists, and escapes cell text', () => {
    const out = markdownToHtml('| Option | Cost |\n|:--|--:|\n| Kafka | <b>high</b> |\n| SQS | low |\n\n- [x] decided\n- [ ] reviewed\n', noLinks)
    expect(out).toContain('<thead><tr><th scope="col" style="text-align: left">Option</th><th scope="col" style="text-align: right">Cost</th></tr>')
    expect(out).toContain('<td style="text-align: left">Kafka</td><td style="text-align: right"><code>&#60;b&#62;</code>high<code>&#60;/b&#62;</code></td>')
    expect(out).not.toContain('| Option |')
    expect(out).toContain('<input type="checkbox" disabled checked aria-label="done"> decided')
    expect(out).toContain('<input type="checkbox" disabled aria-label="not done"> reviewed')
  })
})
