import { cp, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

/**
 * The rules files of public repositories, unchanged (test/fixtures/rules-files/SOURCES.md),
 * ingested with `mk rules ingest .`, and 18 tasks a developer of each would start: a task is fully
 * served when the block holds every rule line it wants and none scoped to another folder.
 */
const fixtures = fileURLToPath(new URL('../fixtures/rules-files/', import.meta.url))

interface Task {
  repo: string
  task: string
  files: string[]
  want: string[]
  notWant: string[]
}

interface Answer {
  context_block: string
}

const readTasks = async (file: string): Promise<Task[]> => (JSON.parse(await readFile(`${fixtures}${file}`, 'utf8')) as { tasks: Task[] }).tasks
const tasks = await readTasks('tasks.json')
/** Two more repositories whose tasks were written after the ranking of issue 29 was built, before mk ran on them. */
const heldOutTasks = await readTasks('tasks-held-out.json')
const workspaces = new Map<string, TempWorkspace>()
afterAll(async () => Promise.all([...workspaces.values()].map((workspace) => workspace.cleanup())))

async function workspaceOf(repo: string): Promise<TempWorkspace> {
  const existing = workspaces.get(repo)
  if (existing !== undefined) return existing
  const workspace = await makeWorkspace()
  await cp(`${fixtures}${repo}`, workspace.root, { recursive: true, verbatimSymlinks: true })
  const ingest = await runMk(['rules', 'ingest', '.', '--json'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
  expect(ingest.exitCode, ingest.stderr).toBe(0)
  workspaces.set(repo, workspace)
  return workspace
}

/** What the block missed of a task: wanted lines absent, unwanted lines present. */
async function misses(task: Task): Promise<string[]> {
  const workspace = await workspaceOf(task.repo)
  const text = `${task.task}. Files: ${task.files.join(', ')}`
  const run = await runMk(['rules', 'directives', text, '--json', '--no-memories'], { cwd: workspace.root, env: { MK_HOME: workspace.mkHome } })
  expect(run.exitCode, run.stderr).toBe(0)
  const block = parseJson<Answer>(run).context_block
  return [
    ...task.want.filter((line) => !block.includes(line)).map((line) => `missing: ${line}`),
    ...task.notWant.filter((line) => block.includes(line)).map((line) => `out of scope: ${line}`),
  ]
}

/** How many tasks are fully served, and what each of the others missed. */
async function score(set: readonly Task[]): Promise<{ served: number; report: string[] }> {
  const report: string[] = []
  let served = 0
  for (const task of set) {
    const missed = await misses(task)
    if (missed.length === 0) served++
    else report.push(`${task.repo}: ${task.task}\n  ${missed.join('\n  ')}`)
  }
  return { served, report }
}

/**
 * Measured: 3 of 18 before rules were told from descriptions and scoped (issue 29); 9, then 10, after; 12 once
 * requested rules need their description to fit, rules naming the task's files, emphasis and the nearest file count;
 * 15 once the nearest file's conventions count as much as naming the task's file, a heading's "Handling" meets a
 * task's "handle" and a file name written alone (`index.ts`) names every file of that name (ADR 0034); 16, the issue's
 * target, once a file a rule names beside the task's file, in its feature's folder, names the task's folder (round 4).
 * 17 (two runs) once a rule in a section on the task's kind of work ("Testing" for "Fix the flaky ... test") counts
 * (rules7; the held-out sets stayed as they were). 18 of 18 once a served section brings the rules its author stressed
 * ("**MANDATORY**: Only ever upgrade a single package at a time"; rules11, three runs).
 */
const fullyServedAtLeast = 18
/**
 * 3 of 6 before and after the changes of ADR 0034; 4 of 6 after the second round, which was made after reading these
 * tasks' misses, so the set no longer judges unseen work.
 */
const heldOutServedAtLeast = 4
/**
 * openai-codex, written after the second round and before mk ran on it: 2 of 4 with the code before that round, 1 of
 * 4 with it (the nearest file's conventions put codex-rs/AGENTS.md's app-server rules before a dependency rule), 2 of
 * 4 once a file name written alone counts; the last change was made after reading that miss. 3 of 4 once a rule reads
 * with its section's descriptions that name paths and the rule introducing its list (round 4, made after reading the
 * misses of this set, which no longer judges unseen work).
 */
const secondHeldOutServedAtLeast = 3
const secondHeldOutTasks = await readTasks('tasks-held-out-2.json')
/** pydantic-ai, whose tasks were written before mk ran on it (third round of issue 29): 2 of 4 after
 * that round's one change (a labelled example is not a rule); the code before it was not run on this set.
 */
const thirdHeldOutServedAtLeast = 2
const thirdHeldOutTasks = await readTasks('tasks-held-out-3.json')
/**
 * agentuity/sdk, whose tasks were written and committed after the fourth round of issue 29, before mk ran on them: 3 of
 * 6, the same with the code before that round; 5 of 6 once an instruction after a short topic label ("**Errors**: Use
 * ...") is a rule, a change made after reading this set's misses, so it no longer judges unseen work. 6 of 6 (two runs)
 * once a folder name written alone as code ("Tests in `test/` folder") names the folder of that name a task's file sits
 * in (rules8; the other sets stayed as they were).
 */
const fourthHeldOutServedAtLeast = 6
const fourthHeldOutTasks = await readTasks('tasks-held-out-4.json')
/**
 * openai/openai-agents-js, one AGENTS.md of 353 lines, whose tasks were written and committed before mk ran on it (fifth
 * round of issue 29): 2 of 6. Two general changes were tried on all six sets after reading its misses and kept neither:
 * a learned heading of three or four words named by two of its words (31 of 44 tasks across the sets, from 32) and
 * a bonus for the topics of the task's head, "Write tests" of "Write tests for …" (29 of 44).
 */
const fifthHeldOutServedAtLeast = 2
const fifthHeldOutTasks = await readTasks('tasks-held-out-5.json')
/**
 * vercel/ai, one AGENTS.md of 320 lines with a testing section, whose tasks were written and committed before mk ran on
 * it (sixth round of issue 29): 3 of 6. 4 of 6 once, in a rules section, a labelled convention that names no path
 * ("Test files: `*.test.ts` alongside source files") is a rule, a change made after reading this set's misses, so it
 * no longer judges unseen work; the other sets stayed as they were. The Mistral task's `.nullish()` rule sits at the
 * block's edge: served in 2 of 7 runs, so it is not counted. 6 of 6 (every run) once a bold label captions the list
 * after it ("**Response Schemas** (API responses):"), a change made after reading this set's misses (rules9).
 */
const sixthHeldOutServedAtLeast = 6
const sixthHeldOutTasks = await readTasks('tasks-held-out-6.json')
/**
 * remix-run/react-router, one AGENTS.md of 158 lines with a long testing section, whose tasks were written and committed
 * before mk ran on it (seventh round of issue 29): 4 of 6. 6 of 6 once a series of instructions whose first verb is not
 * a listed one ("API docs: Edit JSDoc in ..., run `pnpm docs`") and a requirement of every member of a kind ("Every doc
 * needs ...") are rules (two runs), a change made after reading this set's misses, so it no longer judges unseen work.
 */
const seventhHeldOutServedAtLeast = 6
const seventhHeldOutTasks = await readTasks('tasks-held-out-7.json')
/**
 * apache/airflow, a long root AGENTS.md with a testing standards section and providers/AGENTS.md, whose tasks were
 * written and committed before mk ran on them (ninth round of issue 29): 2 of 6, the same with the code before that
 * round's change (a bold label captions its list). 4 of 6 once the block keeps half its places for the section whose
 * heading names the task's kind of work ("Testing Standards" for "Write a test that ...") when it holds one of its rules
 * (rules10, a change made after reading this set's misses, so it no longer judges unseen work). 5 of 6 (three runs) once
 * a served section brings the rules its author stressed ("**Never create newsfragments for providers.**", rules11).
 */
const eighthHeldOutServedAtLeast = 5
const eighthHeldOutTasks = await readTasks('tasks-held-out-8.json')
/**
 * PostHog/posthog, a root AGENTS.md, a nested ClickHouse migrations AGENTS.md that is mostly description and three Cursor
 * rules (Python and Rust by glob, frontend requested by its description), whose tasks were written and committed before
 * mk ran on them (twelfth round of issue 29): 3 of 6.
 */
const ninthHeldOutServedAtLeast = 3
const ninthHeldOutTasks = await readTasks('tasks-held-out-9.json')

/** Each set: its name in the test's title and log, its tasks, how many it must have, and the least number fully served. */
const sets = [
  { name: 'the 18 tasks', tasks, count: 18, atLeast: fullyServedAtLeast, timeoutMs: 600_000 },
  { name: 'the 6 held-out tasks', tasks: heldOutTasks, count: 6, atLeast: heldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 4 tasks of the second held-out set', tasks: secondHeldOutTasks, count: 4, atLeast: secondHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 4 tasks of the third held-out set', tasks: thirdHeldOutTasks, count: 4, atLeast: thirdHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 6 tasks of the fourth held-out set', tasks: fourthHeldOutTasks, count: 6, atLeast: fourthHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 6 tasks of the fifth held-out set', tasks: fifthHeldOutTasks, count: 6, atLeast: fifthHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 6 tasks of the sixth held-out set', tasks: sixthHeldOutTasks, count: 6, atLeast: sixthHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 6 tasks of the seventh held-out set', tasks: seventhHeldOutTasks, count: 6, atLeast: seventhHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 6 tasks of the eighth held-out set', tasks: eighthHeldOutTasks, count: 6, atLeast: eighthHeldOutServedAtLeast, timeoutMs: 300_000 },
  { name: 'the 6 tasks of the ninth held-out set', tasks: ninthHeldOutTasks, count: 6, atLeast: ninthHeldOutServedAtLeast, timeoutMs: 300_000 },
]

describe('directives from real agent rules files', () => {
  for (const set of sets) {
    it(
      `fully serves at least ${set.atLeast} of ${set.name}`,
      async () => {
        const { served, report } = await score(set.tasks)
        console.log(`rules files, ${set.name}: ${served} of ${set.tasks.length} fully served\n${report.join('\n')}`)
        expect(set.tasks.length).toBe(set.count)
        expect(served, report.join('\n')).toBeGreaterThanOrEqual(set.atLeast)
      },
      set.timeoutMs,
    )
  }
})
