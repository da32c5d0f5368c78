import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Constraint, KnowledgeItem } from '../../../src/knowledge/model.js'
import type { Finding, ConstraintRule } from '../../../src/constraints/model.js'
import { GlobMatcher } from '../../../src/constraints/scope.js'
import { SourceText } from '../../../src/constraints/scan/source-text.js'
import { findInlineWaivers, type Waiver } from '../../../src/constraints/waivers/inline-waivers.js'
import { loadFileWaivers, settleWaivers, unmatchedProblem, waiverValidity, type WaiverSetup } from '../../../src/constraints/waivers/waivers.js'

function rule(id: string, waivable = true): ConstraintRule {
  const constraint: Constraint = {
    id,
    operator: 'must_not_match',
    target: 'code',
    pattern: 'x',
    paths: [],
    exclude: [],
    severity: 'block',
    message: undefined,
    waivable,
    line: 3,
  }
  return { constraint, item: { id: 'adr-1', title: 'T', path: 'knowledge/adr/adr-1.md' } as KnowledgeItem, regex: undefined }
}

function finding(of: ConstraintRule, file: string, line: number): Finding & { constraintId: string; waivable: boolean } {
  return { rule: of, file, line, column: 1, subject: 'x', message: 'm', lineHash: 'x', constraintId: of.constraint.id, waivable: of.constraint.waivable }
}

interface Options {
  setup: WaiverSetup
  inlineWaivers: Waiver[]
  complete: boolean
}

const options = (sources: SourceText[], fileWaivers: Waiver[] = [], complete = true): Options => ({
  setup: {
    fileWaivers,
    knownConstraintIds: new Set(['no-x', 'strict']),
    activeConstraintIds: new Set(['no-x', 'strict']),
    today: '2026-06-15',
    globs: new GlobMatcher(),
  },
  inlineWaivers: sources.flatMap(findInlineWaivers),
  complete,
})

/** The findings of one file settled against its inline waivers and the waivers file, with every waiver problem, as a check reports them. */
function applyWaivers(findings: ReturnType<typeof finding>[], { setup, inlineWaivers, complete }: Options) {
  const fileProblems = setup.fileWaivers.map((waiver) => waiverValidity(waiver, setup))
  const valid = fileProblems.flatMap((problems, index) => (problems.length === 0 ? [index] : []))
  const settled = settleWaivers(findings, inlineWaivers, valid, setup)
  const refused = new Set(settled.refusals.map((refusal) => refusal.fileWaiver))
  const unmatchedFileWaivers = complete
    ? valid
        .filter((index) => !settled.fileWaiversUsed.includes(index) && !refused.has(index))
        .map((index) => unmatchedProblem(setup.fileWaivers[index] as Waiver, setup))
    : []
  return {
    kept: settled.kept,
    waived: settled.waived,
    problems: [
      ...settled.invalidWaivers,
      ...fileProblems.flat(),
      ...settled.refusals.map((refusal) => refusal.problem),
      ...settled.unmatchedWaivers,
      ...unmatchedFileWaivers.filter((problem) => problem !== undefined),
    ],
  }
}

describe('inline waivers', () => {
  it('reads ids and the reason from a comment, not from code', () => {
    const source = new SourceText(
      'a.ts',
      [
        'x() // mk-ignore no-x, strict -- legacy API, removed in Q3',
        'const s = "mk-ignore no-x -- in a string"',
        '/* mk-ignore no-x */',
        '// syntax: mk-ignore <id> -- <reason>',
      ].join('\n'),
    )
    const waivers = findInlineWaivers(source)
    expect(waivers.map((waiver) => [waiver.line, waiver.constraintIds, waiver.reason])).toEqual([
      [1, ['no-x', 'strict'], 'legacy API, removed in Q3'],
      [3, ['no-x'], ''],
    ])
  })

  it('finds one waiver per line wherever it is, \r\n line ends and a last line without a line break included', () => {
    const source = new SourceText(
      'a.py',
      ['# mk-ignore a -- first', 'x = 1  # mk-ignore b -- twice # mk-ignore c -- ignored', '', 'y = 2  # mk-ignore d -- last'].join('\r\n'),
    )
    expect(findInlineWaivers(source).map((waiver) => [waiver.line, waiver.constraintIds, waiver.reason])).toEqual([
      [1, ['a'], 'first'],
      [2, ['b'], 'twice # mk-ignore c -- ignored'],
      [4, ['d'], 'last'],
    ])
  })

  it('alone on its line covers the next line; a waiver without reason does not apply and is reported', () => {
    const noX = rule('no-x')
    const source = new SourceText('a.ts', ['// mk-ignore no-x -- generated code', 'x()', 'x() // mk-ignore no-x', 'x()'].join('\n'))
    const outcome = applyWaivers([finding(noX, 'a.ts', 2), finding(noX, 'a.ts', 3), finding(noX, 'a.ts', 4)], options([source]))
    expect(outcome.waived.map((entry) => entry.finding.line)).toEqual([2])
    expect(outcome.kept.map((kept) => kept.line)).toEqual([3, 4])
    expect(outcome.problems.map((problem) => problem.kind)).toEqual(['missing-reason'])
  })

  it('after code covers its own line only, never the next one', () => {
    const noX = rule('no-x')
    const source = new SourceText('a.ts', ['ok()', 'x() // mk-ignore no-x -- legacy', 'x()', '/* mk-ignore no-x -- legacy */ x()', 'x()'].join('\n'))
    const outcome = applyWaivers(
      [2, 3, 4, 5].map((line) => finding(noX, 'a.ts', line)),
      options([source]),
    )
    expect(outcome.waived.map((entry) => entry.finding.line)).toEqual([2, 4])
    expect(outcome.kept.map((kept) => kept.line)).toEqual([3, 5])
  })

  it('alone on its line does not cover its own line', () => {
    const noX = rule('no-x')
    const source = new SourceText('a.ts', ['// x() is fine here: mk-ignore no-x -- legacy', 'x()'].join('\n'))
    const outcome = applyWaivers([finding(noX, 'a.ts', 1), finding(noX, 'a.ts', 2)], options([source]))
    expect(outcome.waived.map((entry) => entry.finding.line)).toEqual([2])
    expect(outcome.kept.map((kept) => kept.line)).toEqual([1])
  })

  it('mk-ignore-next-line covers the next line only, also after code', () => {
    const noX = rule('no-x')
    const source = new SourceText('a.py', ['x()  # mk-ignore-next-line no-x -- legacy', 'x()', 'x()'].join('\n'))
    const outcome = applyWaivers(
      [1, 2, 3].map((line) => finding(noX, 'a.py', line)),
      options([source]),
    )
    expect(outcome.waived.map((entry) => entry.finding.line)).toEqual([2])
    expect(outcome.kept.map((kept) => kept.line)).toEqual([1, 3])
    expect(outcome.problems).toEqual([])
  })

  it('never waives a constraint with waivable: false, and says so', () => {
    const strict = rule('strict', false)
    const source = new SourceText('a.ts', 'x() // mk-ignore strict -- please')
    const outcome = applyWaivers([finding(strict, 'a.ts', 1)], options([source]))
    expect(outcome.kept).toHaveLength(1)
    expect(outcome.problems.map((problem) => problem.kind)).toEqual(['not-waivable'])
  })

  it('reports a waiver that matched nothing and one naming an unknown constraint', () => {
    const source = new SourceText('a.ts', '// mk-ignore no-x -- stale\nok()\n// mk-ignore typo-id -- oops')
    const outcome = applyWaivers([], options([source]))
    expect(outcome.problems.map((problem) => problem.kind).sort()).toEqual(['unknown-constraint', 'unmatched'])
  })
})

describe('the waivers file', () => {
  let root: string | undefined
  afterEach(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true })
  })
  const write = async (text: string): Promise<string> => {
    root = await mkdtemp(join(tmpdir(), 'mk-waivers-'))
    await mkdir(join(root, 'knowledge'))
    await writeFile(join(root, 'knowledge', 'waivers.yaml'), text)
    return root
  }

  it('applies until it expires, then reports the expiry', async () => {
    const dir = await write(
      ['waivers:', '  - constraint: no-x', '    paths: ["legacy/**"]', '    reason: migration ticket 42', '    owner: team-db', '    expires: 2026-06-14'].join(
        '\n',
      ),
    )
    const waivers = loadFileWaivers(dir, 'knowledge/waivers.yaml')
    const noX = rule('no-x')
    const expired = applyWaivers([finding(noX, 'legacy/a.ts', 1)], options([], waivers))
    expect(expired.kept).toHaveLength(1)
    expect(expired.problems).toMatchObject([{ kind: 'expired', file: 'knowledge/waivers.yaml', line: 2 }])
    const valid = applyWaivers(
      [finding(noX, 'legacy/a.ts', 1), finding(noX, 'src/a.ts', 1)],
      (({ setup, ...rest }) => ({ ...rest, setup: { ...setup, today: '2026-06-14' } }))(options([], waivers)),
    )
    expect(valid.waived.map((entry) => entry.finding.file)).toEqual(['legacy/a.ts'])
    expect(valid.kept.map((kept) => kept.file)).toEqual(['src/a.ts'])
  })

  it('does not report an unmatched file waiver when only part of the tree was checked', async () => {
    const dir = await write('waivers:\n  - constraint: no-x\n    reason: r\n')
    const waivers = loadFileWaivers(dir, 'knowledge/waivers.yaml')
    expect(applyWaivers([], options([], waivers, false)).problems).toEqual([])
    expect(applyWaivers([], options([], waivers, true)).problems.map((problem) => problem.kind)).toEqual(['unmatched'])
  })

  it('rejects paths that reach outside the workspace, with file and line', async () => {
    const dir = await write('waivers:\n  - constraint: no-x\n    reason: r\n  - constraint: no-x\n    reason: r\n    paths: ["../other/**"]\n')
    expect(() => loadFileWaivers(dir, 'knowledge/waivers.yaml')).toThrow(/waivers.yaml:4: .*"\.\." segment/)
  })

  it('rejects a malformed entry with its line', async () => {
    const dir = await write('waivers:\n  - constraint: no-x\n    reason: r\n    expires: next week\n')
    expect(() => loadFileWaivers(dir, 'knowledge/waivers.yaml')).toThrow(/waivers.yaml:2: waivers\[0\]\.expires/)
  })
})
