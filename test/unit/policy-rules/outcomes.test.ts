import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { headCommit } from '../../../src/git/head.js'
import { readStats, recordOutcome, type OutcomeEvent } from '../../../src/policy-rules/outcomes.js'
import { makeWorkspace, type TempWorkspace } from '../../helpers/workspace.js'

let workspace: TempWorkspace | undefined
afterEach(async () => workspace?.cleanup())

const event = (ruleId: string, outcome: OutcomeEvent['outcome']): OutcomeEvent => ({
  rule_id: ruleId,
  at: '2026-11-25T17:00:00.000Z',
  outcome,
  tool: 'rg',
  target: 'tool',
  input_sha256: 'a'.repeat(64),
  context_sha256: 'b'.repeat(64),
})

describe('rule outcome ledgers', () => {
  it('appends one line per rule, commits them together, and counts positive and negative outcomes', async () => {
    workspace = await makeWorkspace()
    const home = workspace.mkHome
    const first = await recordOutcome(home, 'rule-outcomes/ws-1', [event('prefer-rg', 'positive'), event('team/odd id', 'negative')], undefined)
    expect(first.files).toEqual(['rule-outcomes/ws-1/prefer-rg.jsonl', expect.stringMatching(/^rule-outcomes\/ws-1\/team-odd-id-[0-9a-f]{8}\.jsonl$/)])
    expect(headCommit(home)).toBe(first.commit)
    const second = await recordOutcome(home, 'rule-outcomes/ws-1', [event('prefer-rg', 'neutral')], undefined)
    expect(headCommit(home)).toBe(second.commit)
    expect(await readStats(home, 'rule-outcomes/ws-1')).toEqual(
      new Map([
        ['prefer-rg', { positive: 1, negative: 0 }],
        ['team/odd id', { positive: 0, negative: 1 }],
      ]),
    )
    expect((await readFile(join(home, 'rule-outcomes/ws-1/prefer-rg.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2)
  })

  it('counts nothing for a line cut short, instead of failing', async () => {
    workspace = await makeWorkspace()
    const home = workspace.mkHome
    await recordOutcome(home, 'rule-outcomes/ws-2', [event('prefer-rg', 'positive')], undefined)
    await appendFile(join(home, 'rule-outcomes/ws-2/prefer-rg.jsonl'), '{"rule_id":"prefer-rg","outcome":"posi')
    expect(await readStats(home, 'rule-outcomes/ws-2')).toEqual(new Map([['prefer-rg', { positive: 1, negative: 0 }]]))
  })

  it('redacts secrets in a note before it is written', async () => {
    workspace = await makeWorkspace()
    const home = workspace.mkHome
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
    await recordOutcome(home, 'rule-outcomes/ws-3', [{ ...event('prefer-rg', 'negative'), note: `token ${secret} leaked` }], undefined)
    const text = await readFile(join(home, 'rule-outcomes/ws-3/prefer-rg.jsonl'), 'utf8')
    expect(text).not.toContain(secret)
    expect(text).toContain('[REDACTED:')
  })
})
