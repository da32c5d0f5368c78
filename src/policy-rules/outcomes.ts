import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { appendJsonLines, readJsonLines } from '../fs/json-lines.js'
import { basename, join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { GitIdentity } from '../git/identity.js'
import { commitChange } from '../memory/history.js'
import { redactFields } from '../memory/redact.js'
import type { Outcome, RuleStats } from '../knowledge/policy-rule/model.js'

/** One line of a rule's outcome ledger (a type, not an interface, so it goes through redactFields as it is). */
export type OutcomeEvent = {
  rule_id: string
  at: string
  outcome: Outcome
  tool: string
  target: 'tool' | 'all'
  run_id?: string
  note?: string
  /** The task input, hashed: the ledger never holds what an agent was asked. */
  input_sha256: string
  context_sha256: string
}

/**
 * The ledgers of one workspace, relative to MK_HOME (see ADR 0013): one append-only JSON Lines file
 * per rule under `rule-outcomes/<workspace name>-<8 hex of its path>/`, committed in MK_HOME's history.
 */
export function outcomesFolder(workspace: Workspace): string {
  const name = basename(workspace.root).replace(/[^A-Za-z0-9._-]/g, '-') || 'root'
  return `rule-outcomes/${name}-${createHash('sha256').update(workspace.root).digest('hex').slice(0, 8)}`
}

/** A rule id as a file name: kept when it is one already, else made one and told apart by a hash. */
export function ledgerName(ruleId: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(ruleId)) return `${ruleId}.jsonl`
  const safe = ruleId.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 80)
  return `${safe}-${createHash('sha256').update(ruleId).digest('hex').slice(0, 8)}.jsonl`
}

/** Two people appending to the same ledger on two clones of MK_HOME merge by keeping both lines. */
const unionMerge = 'rule-outcomes/**/*.jsonl merge=union'

/** Positive and negative outcomes per rule id, counted from the ledgers (neutral ones are kept but do not count). */
export async function readStats(mkHome: string, folder: string): Promise<Map<string, RuleStats>> {
  const dir = join(mkHome, folder)
  const stats = new Map<string, RuleStats>()
  if (!existsSync(dir)) return stats
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.jsonl'))) countOutcomes(await readJsonLines(join(dir, file)), stats)
  return stats
}

/** Adds these ledger lines to the counts per rule id. A line cut by a crash, or a merge gone wrong, counts for nothing rather than failing every evaluation. */
export function countOutcomes(values: Iterable<unknown>, stats: Map<string, RuleStats>): void {
  for (const value of values) {
    const event = value as Partial<OutcomeEvent> | null
    if (event === null || typeof event.rule_id !== 'string' || (event.outcome !== 'positive' && event.outcome !== 'negative')) continue
    const counted = stats.get(event.rule_id) ?? { positive: 0, negative: 0 }
    counted[event.outcome]++
    stats.set(event.rule_id, counted)
  }
}

async function ensureUnionMerge(mkHome: string): Promise<string[]> {
  const path = join(mkHome, '.gitattributes')
  const text = existsSync(path) ? await readFile(path, 'utf8') : ''
  if (text.split('\n').includes(unionMerge)) return []
  await writeFile(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${unionMerge}\n`)
  return ['.gitattributes']
}

export interface RecordedOutcome {
  commit: string
  files: string[]
}

/** Append one event per rule to its ledger and commit them together, so `git log` tells how each rule earned its rank. */
export async function recordOutcome(
  mkHome: string,
  folder: string,
  recorded: readonly OutcomeEvent[],
  author: GitIdentity | undefined,
): Promise<RecordedOutcome> {
  await mkdir(join(mkHome, folder), { recursive: true })
  // The run id, the note and the tool are the caller's words: they reach the ledger and the commit message redacted.
  const { value: events } = await redactFields(recorded)
  const files: string[] = []
  for (const event of events) {
    const file = `${folder}/${ledgerName(event.rule_id)}`
    await appendJsonLines(join(mkHome, file), [event])
    files.push(file)
  }
  const first = events[0]
  const ruleIds = events.map((event) => event.rule_id)
  const message = [
    `rule outcome ${first?.outcome ?? 'neutral'} for ${first?.tool ?? '?'}: ${ruleIds.join(', ')}`,
    '',
    `folder: ${folder}`,
    ...(first?.run_id === undefined ? [] : [`run: ${first.run_id}`]),
    '',
  ].join('\n')
  const commit = await commitChange(mkHome, { add: [...(await ensureUnionMerge(mkHome)), ...files], message, author })
  return { commit, files }
}
