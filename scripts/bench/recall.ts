import { spawnSync } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { reciprocalRankAtK, recallAtK, mean } from '../../src/eval/metrics.js'
import { isUnanswerable, loadTeam, teamQuestionKinds, unanswerableKinds } from '../../src/eval/team.js'
import { mkBin, round } from './measure.js'

const recallDir = fileURLToPath(new URL('../../../bench/recall/', import.meta.url))

function mk(args: string[], cwd: string, home: string): string {
  const result = spawnSync(process.execPath, [mkBin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, MK_HOME: home, NO_COLOR: '1' } })
  if (result.status !== 0) throw new Error(`mk ${args.join(' ')} failed: ${result.stderr}`)
  return result.stdout
}

type Row = Record<'precisionAt1' | 'recallAt3' | 'recallAt10' | 'mrrAt10', number>

const averaged = (rows: readonly Row[]): Row => ({
  precisionAt1: round(mean(rows.map((row) => row.precisionAt1)), 3),
  recallAt3: round(mean(rows.map((row) => row.recallAt3)), 3),
  recallAt10: round(mean(rows.map((row) => row.recallAt10)), 3),
  mrrAt10: round(mean(rows.map((row) => row.mrrAt10)), 3),
})

interface Found {
  results: { memoryId: string }[]
  searchMode: string
  abstained: boolean
}

/**
 * Team-memory recall through the flow a user runs: a fresh workspace, `mk memory add` for every
 * memory, then `mk memory search --json` for every question, with no `mk index update` between:
 * once with --threshold 0 for the ranking (P@1, R@3, R@10, MRR@10 of the answerable questions),
 * once with the default threshold for abstention (issue 29). One set per file in bench/recall/.
 */
export async function benchRecall(): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {}
  for (const name of (await readdir(recallDir)).filter((file) => file.endsWith('.json')).sort()) {
    const set = await loadTeam(join(recallDir, name))
    const root = await mkdtemp(join(tmpdir(), 'mk-bench-recall-'))
    try {
      const home = join(root, 'home')
      spawnSync('git', ['init', '-q'], { cwd: root })
      mk(['init'], root, home)
      const idOf = new Map<string, string>()
      for (const memory of set.memories) {
        const added = JSON.parse(mk(['memory', 'add', memory.content, '--layer', 'project', '--json'], root, home)) as { memoryId: string }
        idOf.set(added.memoryId, memory.id)
      }
      const modes = new Set<string>()
      const search = (text: string, threshold: string[]): Found =>
        JSON.parse(mk(['memory', 'search', text, '--json', '--limit', '10', ...threshold], root, home)) as Found
      const abstained = set.questions.map((question) => ({ kind: question.kind, abstained: search(question.text, []).abstained }))
      // null for a set without questions of that kind (team-blind has no unanswerable questions).
      const rate = (rows: readonly { abstained: boolean }[]): number | null =>
        rows.length === 0 ? null : round(mean(rows.map((row) => (row.abstained ? 1 : 0))), 3)
      const answerable = set.questions.filter((question) => !isUnanswerable(question.kind))
      const rows = answerable.map((question) => {
        const found = search(question.text, ['--threshold', '0'])
        modes.add(found.searchMode)
        const ranked = found.results.map((result) => idOf.get(result.memoryId) ?? result.memoryId)
        const answers = new Set(question.answers)
        const row: Row = {
          precisionAt1: ranked[0] !== undefined && answers.has(ranked[0]) ? 1 : 0,
          recallAt3: recallAtK(ranked, answers, 3),
          recallAt10: recallAtK(ranked, answers, 10),
          mrrAt10: reciprocalRankAtK(ranked, answers, 10),
        }
        return { kind: question.kind, row }
      })
      results[name.replace(/\.json$/, '')] = {
        memories: set.memories.length,
        questions: set.questions.length,
        search_modes: [...modes],
        ...averaged(rows.map(({ row }) => row)),
        by_kind: Object.fromEntries(teamQuestionKinds.map((kind) => [kind, averaged(rows.filter((entry) => entry.kind === kind).map(({ row }) => row))])),
        abstention_rate: rate(abstained.filter((entry) => isUnanswerable(entry.kind))),
        false_abstention_rate: rate(abstained.filter((entry) => !isUnanswerable(entry.kind))),
        abstained_by_kind: Object.fromEntries(
          [...teamQuestionKinds, ...unanswerableKinds].map((kind) => [kind, rate(abstained.filter((entry) => entry.kind === kind))]),
        ),
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }
  return results
}
