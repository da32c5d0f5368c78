import type { Root, RootContent } from 'mdast'
import { remark } from 'remark'
import remarkGfm from 'remark-gfm'
import { escapeHtml } from './html.js'

/** Resolves a link as written in an item's markdown to where it goes on the site (another item's page), or undefined to keep it. */
export type LinkResolver = (href: string) => string | undefined

const safeScheme = /^(https?:|mailto:|#)/i

function safeHref(href: string, resolveLink: LinkResolver): string | undefined {
  const resolved = resolveLink(href)
  if (resolved !== undefined) return resolved
  // javascript:, data: and file: links never reach the page; relative links to files outside the site would be broken.
  return safeScheme.test(href) ? href : undefined
}

type Node = RootContent | Root

function children(node: Node, resolveLink: LinkResolver, headingShift: number): string {
  return 'children' in node ? (node.children as RootContent[]).map((child) => toHtml(child, resolveLink, headingShift)).join('') : ''
}

function toHtml(node: Node, resolveLink: LinkResolver, headingShift: number): string {
  const inner = (): string => children(node, resolveLink, headingShift)
  switch (node.type) {
    case 'root':
      return inner()
    case 'paragraph':
      return `<p>${inner()}</p>\n`
    case 'heading': {
      const depth = Math.min(6, node.depth + headingShift)
      return `<h${depth}>${inner()}</h${depth}>\n`
    }
    case 'text':
      return escapeHtml(node.value)
    case 'emphasis':
      return `<em>${inner()}</em>`
    case 'strong':
      return `<strong>${inner()}</strong>`
    case 'delete':
      return `<del>${inner()}</del>`
    case 'inlineCode':
      return `<code>${escapeHtml(node.value)}</code>`
    case 'code':
      return `<pre><code>${escapeHtml(node.value)}</code></pre>\n`
    case 'blockquote':
      return `<blockquote>${inner()}</blockquote>\n`
    case 'list':
      return node.ordered === true
        ? `<ol${node.start !== null && node.start !== undefined && node.start !== 1 ? ` start="${node.start}"` : ''}>${inner()}</ol>\n`
        : `<ul>${inner()}</ul>\n`
    case 'listItem':
      // A tight list's items hold their paragraphs' text directly, as the markdown reads; a task item shows its box.
      return `<li>${typeof node.checked === 'boolean' ? `<input type="checkbox" disabled${node.checked ? ' checked' : ''} aria-label="${node.checked ? 'done' : 'not done'}"> ` : ''}${node.spread === true ? inner() : node.children.map((child) => (child.type === 'paragraph' ? children(child, resolveLink, headingShift) : toHtml(child, resolveLink, headingShift))).join('')}</li>\n`
    case 'table': {
      const [head, ...body] = node.children
      const align = (column: number): string => {
        const side = node.align?.[column]
        return side === null || side === undefined ? '' : ` style="text-align: ${side}"`
      }
      const row = (cells: RootContent[], tag: 'th' | 'td'): string =>
        `<tr>${cells.map((cell, column) => `<${tag}${tag === 'th' ? ' scope="col"' : ''}${align(column)}>${children(cell, resolveLink, headingShift)}</${tag}>`).join('')}</tr>\n`
      const headRow = head === undefined ? '' : `<thead>${row(head.children, 'th')}</thead>`
      return `<div class="table-scroll"><table>${headRow}<tbody>${body.map((line) => row(line.children, 'td')).join('')}</tbody></table></div>\n`
    }
    case 'thematicBreak':
      return '<hr>\n'
    case 'break':
      return '<br>'
    case 'link': {
      const href = safeHref(node.url, resolveLink)
      return href === undefined ? `<span class="link-off">${inner()}</span>` : `<a href="${escapeHtml(href)}">${inner()}</a>`
    }
    // An image would be a request the site does not control (and possibly off the machine): its text stands in.
    case 'image':
      return `<span class="image-alt">[image: ${escapeHtml(node.alt ?? node.url)}]</span>`
    case 'html':
      return `<code>${escapeHtml(node.value)}</code>`
    case 'linkReference':
    case 'imageReference':
      return 'children' in node ? inner() : escapeHtml(node.label ?? '')
    case 'definition':
      return ''
    default:
      return inner()
  }
}

/**
 * An item's markdown body as HTML, parsed by the project's remark parser with GitHub's extensions (tables, task lists). Raw HTML is shown as code and images as
 * their text, so nothing in a knowledge file can run script or fetch anything. A leading level-1 heading (the title,
 * which the page already shows) is dropped and the rest shifted under the page's own h1.
 */
export function markdownToHtml(body: string, resolveLink: LinkResolver): string {
  const tree = remark().use(remarkGfm).parse(body)
  const first = tree.children[0]
  if (first?.type === 'heading' && first.depth === 1) tree.children.shift()
  const shallowest = Math.min(6, ...tree.children.flatMap((node) => (node.type === 'heading' ? [node.depth] : [])))
  return toHtml(tree, resolveLink, Math.max(0, 2 - shallowest))
}
