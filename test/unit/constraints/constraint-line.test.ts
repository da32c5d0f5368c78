import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConstraintRule } from '../../../src/constraints/model.js'
import { constraintLines } from '../../../src/constraints/reporters/constraint-line.js'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'

const constraint = (id: string, indent = '  ') =>
  `${indent}- id: ${id}\n${indent}  operator: must_not_match\n${indent}  target: code\n${indent}  pattern: "x${id}"\n`

/** Frontmatters the quick reader understands, and forms it must leave to the YAML parser. */
const files: Record<string, string> = {
  indented: `---\nid: adr-1\ntitle: One\nstatus: accepted\nconstraints:\n${constraint('a')}\n  # a comment\n${constraint('b')}tags: [x]\n---\n# One\n`,
  column0: `---\nid: adr-2\ntitle: Two\nstatus: accepted\nconstraints: # the rules\n${constraint('c', '')}${constraint('d', '')}summary: >-\n  constraints:\n  - id: fake\n---\nbody\n`,
  crlf: `---\r\nid: adr-3\r\ntitle: Three\r\nstatus: accepted\r\nconstraints:\r\n${constraint('e').replaceAll('\n', '\r\n')}---\r\nbody\r\n`,
  flow: `---\nid: adr-4\ntitle: Four\nstatus: accepted\nconstraints: [{id: f, operator: must_not_match, target: code, pattern: xf}, {id: g, operator: must_not_match, target: code, pattern: xg}]\n---\nbody\n`,
  dashAlone: `---\nid: adr-5\ntitle: Five\nstatus: accepted\nconstraints:\n  -\n    id: h\n    operator: must_not_match\n    target: code\n    pattern: xh\n${constraint('i')}---\nbody\n`,
  anchored: `---\nid: adr-6\ntitle: Six\nstatus: accepted\nconstraints:\n  - &first\n    id: j\n    operator: must_not_match\n    target: code\n    pattern: xj\n---\nbody\n`,
}

describe('constraint lines for the text report', () => {
  let dir: string
  const rules: ConstraintRule[] = []
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mk-constraint-line-'))
    for (const [name, text] of Object.entries(files)) {
      const absolutePath = join(dir, `${name}.md`)
      await writeFile(absolutePath, text)
      const { item, problems } = await parseKnowledgeFile({ path: `knowledge/adr/${name}.md`, absolutePath, source: 'project', layer: 'project', text })
      expect(
        problems.filter((problem) => problem.severity === 'error'),
        name,
      ).toEqual([])
      for (const parsed of item?.constraints ?? []) if (item !== undefined) rules.push({ constraint: parsed, item, regex: undefined })
    }
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('gives the line the YAML parser gives, for every form', () => {
    expect(rules.map((rule) => rule.constraint.id)).toEqual([...'abcdefghij'])
    const lineOf = constraintLines()
    for (const rule of rules) expect(lineOf(rule), rule.constraint.id).toBe(rule.constraint.line)
  })

  it('reads block lists without the YAML parser', () => {
    const lineOf = constraintLines()
    const quick = rules.filter((rule) => ['indented', 'column0', 'crlf'].some((name) => rule.item.absolutePath.endsWith(`${name}.md`)))
    const lines = quick.map((rule) => {
      const { line: _yaml, ...rest } = rule.constraint
      // A constraint whose line getter fails proves the quick reader answered.
      const blind = {
        ...rule,
        constraint: Object.defineProperty({ ...rest }, 'line', {
          get: () => {
            throw new Error('YAML asked')
          },
        }),
      } as ConstraintRule
      blind.item = { ...rule.item, constraints: rule.item.constraints.map((c) => (c === rule.constraint ? blind.constraint : c)) }
      return lineOf(blind)
    })
    expect(lines).toEqual([6, 12, 6, 10, 6])
  })
})
