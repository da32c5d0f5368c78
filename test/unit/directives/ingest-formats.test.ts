import { describe, expect, it } from 'vitest'
import { formatOf } from '../../../src/directives/ingest/formats.js'
import { renderIngestedRule, ruleIdOf } from '../../../src/directives/ingest/render.js'
import { readSourceFrontmatter, splitGlobs } from '../../../src/directives/ingest/source-frontmatter.js'
import { cursorGeneral, cursorReact, sqlInstructions } from '../../fixtures/agent-rules.js'

describe('formatOf', () => {
  it('knows each agent rules file by its path and nothing else', () => {
    expect(
      [
        'AGENTS.md',
        'packages/api/AGENTS.md',
        'CLAUDE.md',
        '.cursor/rules/react.mdc',
        '.cursor/rules/frontend/forms.mdc',
        '.cursorrules',
        '.github/copilot-instructions.md',
        '.github/instructions/sql.instructions.md',
        '.windsurfrules',
        '.clinerules',
        '.clinerules/testing.md',
        '.kilocode/rules/style.md',
      ].map(formatOf),
    ).toEqual(['agents-md', 'agents-md', 'claude', 'cursor', 'cursor', 'cursor', 'copilot', 'copilot', 'windsurf', 'cline', 'cline', 'kilocode'])
    expect(['README.md', '.cursor/rules/react.md', '.github/instructions/sql.md', 'docs/AGENTS.txt', 'agents.md'].map(formatOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })
})

describe('readSourceFrontmatter', () => {
  it('reads Cursor globs that are not valid YAML, keeping braces whole', () => {
    const read = readSourceFrontmatter(cursorReact)
    expect(read).toMatchObject({
      description: 'Conventions for React components in the console',
      globs: ['apps/console/**/*.tsx', 'packages/ui/**/*.{ts,tsx}'],
      alwaysApply: false,
      bodyStartLine: 6,
    })
    expect(read.body.startsWith('# React components')).toBe(true)
  })

  it('reads empty keys as absent, Copilot applyTo, and YAML lists', () => {
    expect(readSourceFrontmatter(cursorGeneral)).toMatchObject({ description: undefined, globs: [], alwaysApply: true })
    expect(readSourceFrontmatter(sqlInstructions).globs).toEqual(['migrations/**/*.sql', 'src/db/**'])
    expect(readSourceFrontmatter('---\nglobs:\n  - "src/**"\n  - test/**\n---\nbody').globs).toEqual(['src/**', 'test/**'])
    expect(readSourceFrontmatter('---\nglobs: [src/**, "lib/*.{js,cjs}"]\n---\n').globs).toEqual(['src/**', 'lib/*.{js,cjs}'])
  })

  it('gives the whole text as the body when there is no frontmatter', () => {
    expect(readSourceFrontmatter('# Rules\n\n- one\n')).toMatchObject({ globs: [], body: '# Rules\n\n- one\n', bodyStartLine: 1 })
  })

  it('splits on commas outside braces only', () => {
    expect(splitGlobs('a/**/*.{ts,tsx}, b/**')).toEqual(['a/**/*.{ts,tsx}', 'b/**'])
  })
})

describe('ruleIdOf', () => {
  it('derives the id from the path alone', () => {
    expect(ruleIdOf('AGENTS.md')).toBe('agents')
    expect(ruleIdOf('.cursor/rules/react-components.mdc')).toBe('cursor-rules-react-components')
    expect(ruleIdOf('.github/instructions/sql.instructions.md')).toBe('github-instructions-sql-instructions')
    expect(ruleIdOf('.windsurfrules')).toBe('windsurfrules')
  })

  it('keeps long paths apart', () => {
    const long = `${'deeply/nested/'.repeat(8)}`
    const first = ruleIdOf(`${long}one/AGENTS.md`)
    const second = ruleIdOf(`${long}two/AGENTS.md`)
    expect(first.length).toBeLessThanOrEqual(80)
    expect(first).not.toBe(second)
  })
})

describe('renderIngestedRule', () => {
  it('writes a rule item with the scope and origin in frontmatter and the body as written', () => {
    const rule = renderIngestedRule('.cursor/rules/react-components.mdc', 'cursor', cursorReact)
    expect(rule.content).toBe(`---
# Written by mk rules ingest from .cursor/rules/react-components.mdc: edit that file and ingest it again.
id: cursor-rules-react-components
type: rule
title: React components
status: accepted
summary: Conventions for React components in the console
tags:
  - ingested
  - cursor
applies_to:
  - apps/console/**/*.tsx
  - packages/ui/**/*.{ts,tsx}
activation: auto
source_path: .cursor/rules/react-components.mdc
ingested_from: cursor
---
# React components

- Write function components with hooks; class components are not allowed.
- Components MUST NOT fetch data directly; use the query hooks in \`apps/console/src/data\`.
- Name component files in PascalCase.
`)
    expect(rule).toMatchObject({ title: 'React components', sections: 1, appliesTo: ['apps/console/**/*.tsx', 'packages/ui/**/*.{ts,tsx}'] })
  })

  it('scopes a nested AGENTS.md to its folder and records each Cursor rule type as an activation', () => {
    expect(renderIngestedRule('web/AGENTS.md', 'agents-md', '# Web\n\n- Keep tests independent.\n').appliesTo).toEqual(['web/**'])
    expect(renderIngestedRule('AGENTS.md', 'agents-md', '# Root\n').appliesTo).toEqual([])
    const cursor = (frontmatter: string): string => renderIngestedRule('.cursor/rules/x.mdc', 'cursor', `---\n${frontmatter}\n---\n- Use pnpm.\n`).content
    expect(cursor('alwaysApply: true')).toContain('activation: always')
    expect(cursor('globs: "*.tsx"\nalwaysApply: false')).toMatch(/applies_to:\n {2}- "\*\*\/\*\.tsx"\nactivation: auto/)
    expect(cursor('description: How to add API routes\nalwaysApply: false')).toContain('activation: requested')
    expect(cursor('description:\nglobs:\nalwaysApply: false')).toContain('activation: manual')
    expect(renderIngestedRule('web/.cursor/rules/x.mdc', 'cursor', '---\nglobs: src/**\n---\n- Use pnpm.\n').appliesTo).toEqual(['web/src/**'])
  })

  it('titles a file without a heading after its file name', () => {
    expect(renderIngestedRule('.cursor/rules/general.mdc', 'cursor', cursorGeneral).title).toBe('Agent rules from general.mdc')
  })
})
