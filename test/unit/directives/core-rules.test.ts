import { describe, expect, it } from 'vitest'
import { buildVocabulary } from '../../../src/directives/context.js'
import type { Directive } from '../../../src/directives/model.js'
import { coreRules } from '../../../src/directives/query.js'
import { prepareDirective } from '../../../src/directives/rank.js'
import { directiveOf } from '../../helpers/directive.js'

const vocabulary = buildVocabulary({})

/** A MUST of an ADR's decision section, with any field overridden. */
function directive(id: string, fields: Partial<Directive> = {}): Directive {
  const itemId = id.split('#')[0] ?? id
  return directiveOf(id, `Rule of ${id} MUST hold.`, {
    itemType: 'adr',
    itemTitle: id,
    path: `knowledge/adr/${itemId}.md`,
    section: 'decision',
    breadcrumb: [id, 'Decision'],
    ...fields,
  })
}

const set = {
  vocabulary,
  directives: [
    directive('a-money#decision-1'),
    directive('b-utc#decision-1'),
    directive('c-always#rules-1', { activation: 'always', severity: 'SHOULD', keyword: undefined }),
    directive('d-scoped#decision-1', { appliesTo: ['web/**'] }),
    directive('e-should#decision-1', { severity: 'SHOULD', keyword: 'SHOULD' }),
  ].map((entry) => prepareDirective(entry, vocabulary)),
}
const ids = (ranked: ReturnType<typeof coreRules>): string[] => ranked.map((entry) => entry.directive.id)

describe('coreRules', () => {
  it('serves the always-applied first, then the unscoped MUST rules closest to the task in meaning', () => {
    expect(ids(coreRules(set, []))).toEqual(['c-always#rules-1', 'a-money#decision-1', 'b-utc#decision-1'])
    const meaning = new Map([
      ['a-money#decision-1', 0.12],
      ['b-utc#decision-1', 0.31],
    ])
    expect(ids(coreRules(set, [], meaning))).toEqual(['c-always#rules-1', 'b-utc#decision-1', 'a-money#decision-1'])
  })

  it('tells rules about as close in meaning apart by severity, and keeps to the items rules.coreItems names', () => {
    const meaning = new Map([
      ['e-should#decision-1', 0.36],
      ['a-money#decision-1', 0.31],
      ['b-utc#decision-1', 0.05],
    ])
    expect(ids(coreRules(set, ['a-money', 'e-should', 'b-utc'], meaning))).toEqual(['a-money#decision-1', 'e-should#decision-1', 'b-utc#decision-1'])
  })
})
