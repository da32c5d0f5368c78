import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mkBin, round, timeMk } from './measure.js'

const areas = ['storage', 'messaging', 'api', 'security', 'frontend', 'deployment', 'observability', 'testing']

/** `count` adr-tools decisions: every fifth supersedes the one before it, every third names an older one, in a git repository. */
export async function siteWorkspace(count: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-site-'))
  const dir = join(root, 'doc', 'adr')
  await mkdir(dir, { recursive: true })
  await writeFile(join(root, '.mkrc'), 'knowledge:\n  sources:\n    - name: decisions\n      layer: project\n      path: doc/adr\n')
  const name = (number: number): string => `${String(number).padStart(4, '0')}-decision-${number}-on-${areas[number % areas.length] ?? 'api'}.md`
  for (let number = 1; number <= count; number++) {
    const supersededBy = number % 5 === 4 && number < count ? `Superseded by [${number + 1}. Decision](${name(number + 1)})` : 'Accepted'
    const supersedes = number % 5 === 0 ? `\nSupersedes [${number - 1}. Decision](${name(number - 1)})\n` : ''
    const relates = number % 3 === 0 && number > 10 ? ` It builds on [ADR ${number - 7}](${name(number - 7)}).` : ''
    const text = [
      `# ${number}. Decision ${number} on ${areas[number % areas.length] ?? 'api'}`,
      '',
      `Date: 20${String(10 + (number % 15)).padStart(2, '0')}-0${1 + (number % 9)}-1${number % 10}`,
      '',
      '## Status',
      '',
      supersededBy,
      supersedes,
      '## Context',
      '',
      `The ${areas[number % areas.length] ?? 'api'} area needed a rule for case ${number}: teams chose differently and reviews repeated the same argument.${relates}`,
      '',
      '## Decision',
      '',
      `We settle case ${number} one way for every service, and write down why, so that the next review starts from here.`,
      '',
      '## Consequences',
      '',
      'Existing services migrate when they are next changed; new services follow it from the start.',
      '',
    ].join('\n')
    await writeFile(join(dir, name(number)), text)
  }
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: root })
  spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'add', '.'], { cwd: root })
  spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'decisions'], { cwd: root })
  return root
}

/** Build time of the site of a 200-decision repository, and the weight of its decision log page. */
export async function benchSite(): Promise<Record<string, unknown>> {
  const root = await siteWorkspace(200)
  try {
    const out = join(root, '.mk', 'site')
    const timing = timeMk(['site', 'build', '--out', out], { cwd: root, env: { MK_HOME: join(root, '.home') }, runs: 3 })
    const result = spawnSync(process.execPath, [mkBin, 'site', 'build', '--out', out, '--json'], {
      cwd: root,
      env: { ...process.env, MK_HOME: join(root, '.home') },
      encoding: 'utf8',
    })
    const built = JSON.parse(result.stdout) as { pages: number; indexWeight: number; totalBytes: number }
    return {
      decisions: 200,
      build: timing,
      pages: built.pages,
      index_weight_kb: round(built.indexWeight / 1024),
      index_within_1mb: built.indexWeight <= 1024 * 1024,
      total_kb: round(built.totalBytes / 1024),
    }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
