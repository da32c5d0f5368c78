import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitServer, type RemoteRepo } from '../../test/helpers/git-server.js'
import { median, mkBin, round } from './measure.js'

function adr(index: number, revision = 0): string {
  const number = String(index).padStart(4, '0')
  return [
    '---',
    `id: adr-${number}`,
    'type: adr',
    `title: Decision ${index}${revision > 0 ? ` (revision ${revision})` : ''}`,
    'status: accepted',
    'constraints:',
    '  - operator: must_not_match',
    '    target: code',
    `    pattern: "forbidden_${index}\\\\("`,
    '---',
    `# Decision ${index}`,
    '',
    'Context and decision text. '.repeat(20),
    '',
  ].join('\n')
}

function items(count: number, revision = 0): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`adr/adr-${String(index + 1).padStart(4, '0')}.md`, adr(index + 1, revision)]))
}

/** The git server lives in this process, so mk runs asynchronously (a blocking spawn would starve the server). */
function runMk(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [mkBin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`mk ${args.join(' ')} exited ${String(code)}: ${stderr}`)),
    )
  })
}

async function workspace(sources: { name: string; layer: string; url: string }[]): Promise<{ root: string; env: NodeJS.ProcessEnv }> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-sync-'))
  const lines = sources.map((source) => `    - {name: ${source.name}, layer: ${source.layer}, url: "${source.url}"}`)
  await writeFile(join(root, '.mkrc'), ['knowledge:', '  sources:', ...lines, 'search: {embedding: {provider: none}}', ''].join('\n'))
  return { root, env: { MK_HOME: join(root, '.home') } }
}

/** `mk sync` whole-process: three remote sources with nothing new, and one source of 1,000 items where 20 changed. */
export async function benchSync(): Promise<Record<string, unknown>> {
  const server = await startGitServer()
  const roots: string[] = []
  try {
    const runs = 7
    const layers = ['team', 'org', 'company'] as const
    const repos = await Promise.all(layers.map((layer) => server.createRepo(`bench-${layer}`, items(100))))
    const three = await workspace(repos.map((repo, index) => ({ name: layers[index] ?? 'x', layer: layers[index] ?? 'company', url: repo.url })))
    roots.push(three.root)
    await runMk(['sync'], three.root, three.env)
    const timeRuns = async (args: readonly string[]): Promise<number> => {
      const times: number[] = []
      for (let run = 0; run < runs + 1; run++) {
        const elapsed = await runMk(args, three.root, three.env)
        if (run > 0) times.push(elapsed)
      }
      return round(median(times))
    }
    const noChangeMedian = await timeRuns(['sync'])
    // The same process start-up, config and knowledge loading without any network: what sync adds is the rest.
    const listMedian = await timeRuns(['knowledge', 'list'])
    // With a search index present, a sync first takes the knowledge files' signature (one stat per file).
    await runMk(['knowledge', 'query', 'decision'], three.root, three.env)
    const withIndexMedian = await timeRuns(['sync'])

    const big: RemoteRepo = await server.createRepo('bench-big', items(1000))
    const one = await workspace([{ name: 'company', layer: 'company', url: big.url }])
    roots.push(one.root)
    const firstClone = await runMk(['sync'], one.root, one.env)
    const changed: number[] = []
    for (let run = 1; run <= runs; run++) {
      const edits = Object.fromEntries(
        Array.from({ length: 20 }, (_, index) => [`adr/adr-${String(run * 20 + index).padStart(4, '0')}.md`, adr(run * 20 + index, run)]),
      )
      await big.commit(edits, `bench revision ${run}`)
      changed.push(await runMk(['sync'], one.root, one.env))
    }
    const forced: number[] = []
    for (let run = 0; run < 3; run++) forced.push(await runMk(['sync', '--force'], one.root, one.env))

    return {
      three_sources_no_change: { median_ms: noChangeMedian, runs, budget_ms: 400, within_budget: noChangeMedian <= 400 },
      three_sources_no_change_with_index: { median_ms: withIndexMedian, runs },
      knowledge_list_same_workspace: { median_ms: listMedian, runs },
      first_clone_1000_items_ms: round(firstClone),
      changed_20_of_1000: { median_ms: round(median(changed)), runs },
      force_reprocess_1000: { median_ms: round(median(forced)), runs: forced.length },
    }
  } finally {
    await server.close()
    await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })))
  }
}
