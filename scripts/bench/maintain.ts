import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mkBin, round } from './measure.js'
import { writeProjectMemory } from './memory-files.js'

const day = 24 * 60 * 60 * 1000

/** `count` project memories last changed 0–400 days ago, written as mk writes them. */
export async function agedWorkspace(count: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-maintain-'))
  const dir = join(root, 'knowledge', 'memory')
  await mkdir(dir, { recursive: true })
  await writeFile(join(root, '.mkrc'), 'search:\n  embedding:\n    provider: none\n')
  const now = Date.now()
  for (let index = 0; index < count; index++) {
    const when = new Date(now - ((index * 7919) % 400) * day).toISOString()
    await writeProjectMemory(dir, { content: `Fact ${index}: service ${index % 97} owns queue ${index % 31}`, when, source: 'bench' })
  }
  return root
}

function timed(args: string[], cwd: string): { ms: number; output: { scanned: number; moves: unknown[] } } {
  const started = performance.now()
  const run = spawnSync(process.execPath, [mkBin, ...args, '--json'], {
    cwd,
    env: { ...process.env, MK_HOME: join(cwd, '.mk-home') },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  })
  const ms = performance.now() - started
  if (run.status !== 0) throw new Error(`mk ${args.join(' ')} exited ${String(run.status)}: ${run.stderr}${run.stdout.slice(0, 2000)}`)
  return { ms, output: JSON.parse(run.stdout) as { scanned: number; moves: unknown[] } }
}

/** Issue 16's budget: `mk memory maintain` over 100,000 memories in 10 s, once the index holds them. */
export async function benchMaintain(): Promise<Record<string, unknown>> {
  const count = Number(process.env.MK_BENCH_MAINTAIN_MEMORIES ?? 100_000)
  const root = await agedWorkspace(count)
  const first = timed(['memory', 'maintain'], root)
  const dryRun = timed(['memory', 'maintain'], root)
  const applied = timed(['memory', 'maintain', '--apply'], root)
  const after = timed(['memory', 'maintain'], root)
  await rm(root, { recursive: true, force: true })
  return {
    memories: count,
    first_run_reading_every_file_ms: round(first.ms),
    dry_run_ms: round(dryRun.ms),
    planned_moves: dryRun.output.moves.length,
    apply_ms: round(applied.ms),
    applied_moves: applied.output.moves.length,
    dry_run_after_apply_ms: round(after.ms),
    budget_ms: 10_000,
    within_budget: dryRun.ms <= 10_000 && applied.ms <= 10_000,
  }
}
