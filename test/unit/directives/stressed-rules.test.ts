import { describe, expect, it } from 'vitest'
import type { RankedDirective } from '../../../src/directives/rank.js'
import { bringStressedRules } from '../../../src/directives/stressed-rules.js'
import { directiveOf } from '../../helpers/directive.js'

/**
 * Issue 29: sentry's "**MANDATORY**: Only ever upgrade a single package at a time" ranked 27th for an OpenTelemetry
 * upgrade whose block held four rules of its section; airflow's "**Never create newsfragments for providers.**" ranked
 * 10th for a breaking-change note whose block opened with the other paragraph of its section.
 */
describe('bringStressedRules: a section served brings the rules its author stressed', () => {
  const entry = (id: string, text: string, heading: string, emphasis = false): RankedDirective => ({
    directive: directiveOf(id, text, { breadcrumb: ['Upgrades', heading], ...(emphasis ? { emphasis } : {}) }),
    rationale: '',
    keys: [],
  })
  const ids = (ranked: readonly RankedDirective[]): string[] => ranked.map((ranking) => ranking.directive.id)
  const process = [1, 2].map((n) => entry(`a#process-${n}`, `Process step ${n}`, 'Upgrade Process'))
  const other = [1, 2, 3].map((n) => entry(`a#other-${n}`, `Other rule ${n}`, 'Other'))
  const mandatory = entry('a#process-3', 'MANDATORY: Only ever upgrade a single package at a time.', 'Upgrade Process', true)
  const wholeBold = entry('a#process-4', 'Never create newsfragments for providers.', 'Upgrade Process', true)

  it('puts a stressed rule of a section in the block right after the first rule of its section', () => {
    const ranked = [process[0]!, ...other, process[1]!, mandatory]
    expect(ids(bringStressedRules(ranked, 4))).toEqual(['a#process-1', 'a#process-3', 'a#other-1', 'a#other-2', 'a#other-3', 'a#process-2'])
    expect(ids(bringStressedRules([process[0]!, ...other, wholeBold], 4))).toEqual(['a#process-1', 'a#process-4', 'a#other-1', 'a#other-2', 'a#other-3'])
  })

  it('brings one stressed rule of each section, the best ranked, so a file written all in bold does not fill the block', () => {
    const ranked = [process[0]!, ...other, mandatory, wholeBold]
    expect(ids(bringStressedRules(ranked, 4))).toEqual(['a#process-1', 'a#process-3', 'a#other-1', 'a#other-2', 'a#other-3', 'a#process-4'])
  })

  it('leaves alone a bold term that names what an item is about, and sections the block does not serve', () => {
    const term = entry('a#process-5', 'Main branch: NEVER commit directly', 'Upgrade Process', true)
    const ranked = [process[0]!, ...other, term]
    expect(bringStressedRules(ranked, 4)).toEqual(ranked)
    const unserved = [...other, process[0]!, mandatory]
    expect(bringStressedRules(unserved, 3)).toEqual(unserved)
    const plain = [process[0]!, ...other, process[1]!]
    expect(bringStressedRules(plain, 4)).toEqual(plain)
  })
})
