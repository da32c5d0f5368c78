import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** The manual: the front-door files and every page under docs/. */
function manualPages(): string[] {
  const pages = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((name) => join(root, name))
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.md')) pages.push(path)
    }
  }
  walk(join(root, 'docs'))
  return pages
}

/** Markdown text with fenced code blocks and inline code removed, where link syntax is only text. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

/** The anchors GitHub gives the headings of a page. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of prose(markdown.replace(/`([^`\n]*)`/g, '$1')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const text = (heading ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Every relative link of a page that does not lead to a file, or to a heading, that exists. */
function brokenLinks(page: string): string[] {
  const text = readFileSync(page, 'utf8')
  const broken: string[] = []
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (target === undefined || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const [path = '', anchor] = target.split('#')
    const file = path === '' ? page : join(dirname(page), decodeURIComponent(path))
    if (!existsSync(file)) broken.push(`${target} (no such file)`)
    else if (anchor !== undefined && anchor !== '' && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor))
      broken.push(`${target} (no such heading)`)
  }
  return broken
}

// Issue 26.7: every relative link of the manual leads somewhere.
describe('links in README.md, ARCHITECTURE.md, CONTRIBUTING.md, CHANGELOG.md and docs/', () => {
  it.each(manualPages().map((page) => [relative(root, page), page]))('%s has no broken relative link', (_name, page) => {
    expect(existsSync(page), `${page} is missing`).toBe(true)
    expect(brokenLinks(page)).toEqual([])
  })

  it('finds a broken file link and a broken heading link, so the check above can fail', () => {
    expect(anchorsOf('# Hooks and CI\n## The `--staged` check\n## Errors\n## Errors\n')).toEqual(
      new Set(['hooks-and-ci', 'the---staged-check', 'errors', 'errors-1']),
    )
  })
})

// Issue 26.7: the README is the front door, not the manual.
describe('README.md', () => {
  it('stays at most 300 lines, with the guides and the reference in docs/', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(300)
    for (const page of ['adopting', 'hooks-and-ci', 'memory', 'agents-and-mcp', 'team-server', 'configuration', 'troubleshooting']) {
      expect(existsSync(join(root, 'docs', `${page}.md`)), `docs/${page}.md`).toBe(true)
    }
    for (const page of ['commands', 'tools', 'configuration', 'errors', 'environment']) {
      expect(existsSync(join(root, 'docs', 'reference', `${page}.md`)), `docs/reference/${page}.md`).toBe(true)
    }
  })
})
