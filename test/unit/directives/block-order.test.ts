import { describe, expect, it } from 'vitest'
import { blockOrder } from '../../../src/directives/block-order.js'
import type { RankedDirective } from '../../../src/directives/rank.js'
import { directiveOf } from '../../helpers/directive.js'

describe('blockOrder: stressed rules brought in, then places for the task kind', () => {
  const entry = (id: string, heading: string, options: { emphasis?: boolean; onTaskKind?: boolean } = {}): RankedDirective => ({
    directive: directiveOf(`rules#${id}`, `Rule ${id}`, { breadcrumb: [heading], ...(options.emphasis === true ? { emphasis: true } : {}) }),
    rationale: '',
    keys: [],
    ...(options.onTaskKind === true ? { onTaskKind: true } : {}),
  })
  const ids = (ranked: readonly RankedDirective[]): string[] => ranked.map((ranking) => ranking.directive.id.replace('rules#', ''))

  it("keeps the task kind's places when a brought rule pushes that section's one rule out of the block", () => {
    const others = ['b', 'c', 'd', 'e', 'f', 'g'].map((id) => entry(id, `Section ${id}`))
    const testing = [1, 2, 3].map((n) => entry(`t${n}`, 'Testing Standards', { onTaskKind: true }))
    const ranked = [entry('a', 'Upgrades'), ...others, testing[0]!, testing[1]!, testing[2]!, entry('a-stressed', 'Upgrades', { emphasis: true })]
    expect(ids(blockOrder(ranked, 8, 4).slice(0, 8))).toEqual(['a', 'a-stressed', 'b', 'c', 'd', 't1', 't2', 't3'])
  })
})
