import { describe, expect, it } from 'vitest'
import { FrontmatterSyntaxError, parseFrontmatter } from '../../../src/knowledge/frontmatter.js'

describe('parseFrontmatter', () => {
  const text = '---\ntitle: X\nconstraints:\n  - id: a\n    operator: must_not_use\n---\n# Hello\n\nbody\n'

  it('reads data and the body', () => {
    const parsed = parseFrontmatter(text)
    expect(parsed.present).toBe(true)
    expect(parsed.data.title).toBe('X')
    expect(parsed.body).toContain('# Hello')
  })

  it('locates keys by file line', () => {
    const parsed = parseFrontmatter(text)
    expect(parsed.lineOf(['title'])).toBe(2)
    expect(parsed.lineOf(['constraints', 0])).toBe(4)
    expect(parsed.lineOf(['constraints', 0, 'operator'])).toBe(5)
    expect(parsed.bodyStartLine).toBe(7)
  })

  it('reports malformed YAML with its file line', () => {
    let caught: unknown
    try {
      parseFrontmatter('---\ntitle: X\ntags: [a, b\nstatus: accepted\n---\nbody')
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(FrontmatterSyntaxError)
    expect((caught as FrontmatterSyntaxError).message).toMatch(/malformed YAML frontmatter/)
    expect((caught as FrontmatterSyntaxError).line).toBeGreaterThanOrEqual(3)
  })

  // A file anyone can commit must not make a check or a server thread expand a billion values.
  it('refuses frontmatter whose aliases expand past the value budget, and keeps small anchors', () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level <= 8; level++)
      levels.push(
        `a${level}: &a${level} [${Array(10)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      )
    const bomb = `---\ntitle: X\n${levels.join('\n')}\n---\nbody\n`
    expect(() => parseFrontmatter(bomb)).toThrow(FrontmatterSyntaxError)
    expect(() => parseFrontmatter(bomb)).toThrow(/aliases/)

    const shared = parseFrontmatter('---\nbase: &base {owner: platform}\nalso: *base\n---\nbody\n')
    expect(shared.data.also).toEqual({ owner: 'platform' })
  })

  it('treats a file without frontmatter as body only', () => {
    const parsed = parseFrontmatter('# Title\n\ntext\n')
    expect(parsed.present).toBe(false)
    expect(parsed.bodyStartLine).toBe(1)
  })
})
