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
})
