import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileCodeSearch } from '../../src/constraints/scan/code-search.js'
import { compilePattern, compilePatternSet } from '../../src/constraints/scan/regex.js'
import { benchCheckScale, clearScanCache } from './check-scale.js'
import { benchConstraints, makeCheckWorkspace, type BenchConstraint } from './check-workspace.js'
import { median, mkBin, round, timeMk } from './measure.js'

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url))

function timeProcess(command: string, args: readonly string[], cwd: string, runs: number): number {
  const times: number[] = []
  for (let index = 0; index < runs + 1; index++) {
    const started = performance.now()
    const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    if (result.error !== undefined) throw result.error
    if (index > 0) times.push(performance.now() - started)
  }
  return round(median(times))
}

function ensureRipgrep(): boolean {
  if (spawnSync('rg', ['--version']).status === 0) return true
  process.stderr.write('bench: ripgrep not found, installing it with apt-get\n')
  // A fresh machine has no package lists yet: update them once when the first attempt fails.
  if (spawnSync('apt-get', ['install', '-y', 'ripgrep'], { stdio: 'ignore' }).status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore' })
    spawnSync('apt-get', ['install', '-y', 'ripgrep'], { stdio: 'ignore' })
  }
  const installed = spawnSync('rg', ['--version']).status === 0
  if (!installed) process.stderr.write('bench: ripgrep is absent (apt-get install -y ripgrep failed); no ratios to ripgrep\n')
  return installed
}

function ripgrepArgs(constraint: BenchConstraint): string[] {
  return ['--count-matches', '--glob', '!knowledge/**', ...(constraint.paths ?? []).flatMap((glob) => ['--glob', glob]), '-e', constraint.pattern, '.']
}

/** ESLint's no-restricted-imports with the same import patterns (JS/TS only: ESLint does not read Python). */
function writeEslintConfig(root: string, constraints: readonly BenchConstraint[]): string {
  const parser = join(repositoryRoot, 'node_modules/@typescript-eslint/parser/dist/index.js')
  const restricted = (scoped: readonly BenchConstraint[]) =>
    JSON.stringify([
      'error',
      { patterns: scoped.map((constraint) => ({ regex: `^(${constraint.pattern})(/.*)?$`, message: 'forbidden by a knowledge constraint' })) },
    ])
  const global = constraints.filter((constraint) => constraint.paths === undefined)
  const blocks = [
    `{ files: ['**/*.js', '**/*.ts'], languageOptions: { parser, sourceType: 'module' }, rules: { 'no-restricted-imports': ${restricted(global)} } }`,
    ...constraints
      .filter((constraint) => constraint.paths !== undefined)
      .map(
        (constraint) =>
          `{ files: ${JSON.stringify((constraint.paths ?? []).map((glob) => `${glob.replace(/\/\*\*$/, '')}/**/*.{js,ts}`))}, rules: { 'no-restricted-imports': ${restricted([...global, constraint])} } }`,
      ),
  ]
  const file = join(root, 'eslint.bench.config.mjs')
  writeFileSync(file, `import parser from ${JSON.stringify(parser)}\nexport default [\n  { ignores: ['knowledge/**'] },\n  ${blocks.join(',\n  ')},\n]\n`)
  return file
}

/**
 * The code searches in process, same work for each engine: every match offset
 * of every code pattern in every file. re2js per pattern, re2js as mk runs it
 * (one multi-pattern pass, then only the patterns that occur), and V8's
 * backtracking RegExp per pattern.
 */
function compareEngines(root: string, sources: readonly string[]): Record<string, number> {
  const texts = sources.map((path) => readFileSync(join(root, path), 'utf8'))
  const patterns = benchConstraints.filter((constraint) => constraint.target === 'code').map((constraint) => constraint.pattern)
  const time = (search: () => number): { ms: number; matches: number } => {
    const times: number[] = []
    let matches = 0
    for (let run = 0; run < 5; run++) {
      const started = performance.now()
      matches = search()
      times.push(performance.now() - started)
    }
    return { ms: round(median(times)), matches }
  }
  const compiled = patterns.map((pattern) => compilePattern(pattern))
  const perPattern = time(() => compiled.reduce((sum, pattern) => sum + texts.reduce((count, text) => count + pattern.lineMatchOffsets(text).length, 0), 0))
  const occurring = compilePatternSet(patterns)
  const withSet = time(() =>
    texts.reduce((count, text) => count + [...occurring(text)].reduce((sum, index) => sum + (compiled[index]?.lineMatchOffsets(text).length ?? 0), 0), 0),
  )
  const search = compileCodeSearch(patterns.map((pattern) => ({ pattern })))
  const withLiterals = time(() =>
    texts.reduce((count, text) => {
      const found = search.search(text)
      return count + patterns.reduce((sum, _, index) => sum + found.lineMatchOffsets(index).length, 0)
    }, 0),
  )
  const v8Patterns = patterns.map((pattern) => (pattern.startsWith('(?i)') ? new RegExp(pattern.slice(4), 'gmi') : new RegExp(pattern, 'gm')))
  const v8 = time(() => v8Patterns.reduce((sum, pattern) => sum + texts.reduce((count, text) => count + [...text.matchAll(pattern)].length, 0), 0))
  return {
    bytes: texts.reduce((sum, text) => sum + text.length, 0),
    re2js_per_pattern_ms: perPattern.ms,
    re2js_pattern_set_ms: withSet.ms,
    literal_prefilter_then_re2js_ms: withLiterals.ms,
    v8_regexp_per_pattern_ms: v8.ms,
    matches_re2js: withSet.matches,
    matches_literal_prefilter: withLiterals.matches,
    matches_v8: v8.matches,
    set_over_v8: round(withSet.ms / v8.ms, 2),
    literal_prefilter_over_v8: round(withLiterals.ms / v8.ms, 2),
  }
}

/**
 * Median CPU time (user + system, seconds) of a whole `mk` process: on a shared
 * machine it varies far less than wall time. Needs GNU time at /usr/bin/time.
 */
function cpuMk(args: readonly string[], cwd: string, runs = 7): number | string {
  const seconds: number[] = []
  for (let index = 0; index < runs + 1; index++) {
    clearScanCache(cwd)
    const result = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, mkBin, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    if (result.error !== undefined) return 'not available (/usr/bin/time missing)'
    const [user, system] = (result.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number)
    if (index > 0 && user !== undefined && system !== undefined) seconds.push(user + system)
  }
  return round(median(seconds) * 1000)
}

/** Catastrophic backtracking: `(a+)+$` against a's followed by a character that fails the match. */
function redos(): Record<string, number> {
  const timeOnce = (run: () => void): number => {
    const started = performance.now()
    run()
    return round(performance.now() - started, 2)
  }
  const linear = compilePattern('(a+)+$')
  const figures: Record<string, number> = { re2js_100k_ms: timeOnce(() => linear.lineMatchOffsets(`${'a'.repeat(100_000)}!`)) }
  for (const length of [20, 22, 24]) {
    const backtracking = /(a+)+$/
    figures[`v8_${length}_ms`] = timeOnce(() => backtracking.test(`${'a'.repeat(length)}!`))
  }
  return figures
}

export async function benchCheck(): Promise<Record<string, unknown>> {
  const { root, sources } = await makeCheckWorkspace()
  try {
    // These figures are of checks that read every file, as before the scan cache; `scale` has the cached ones.
    const check = timeMk(['knowledge', 'check'], { cwd: root, budgetMs: 500, before: () => clearScanCache(root) })
    const checkCpuMs = cpuMk(['knowledge', 'check'], root)
    spawnSync('git', ['init', '-q'], { cwd: root })
    spawnSync('git', ['add', '-A'], { cwd: root })
    const staged = timeMk(['knowledge', 'check', '--staged'], { cwd: root, budgetMs: 500, before: () => clearScanCache(root) })
    const codeConstraints = benchConstraints.filter((constraint) => constraint.target === 'code' && constraint.operator === 'must_not_match')
    const importConstraints = benchConstraints.filter((constraint) => constraint.target === 'import' && constraint.operator === 'must_not_use')
    const figures: Record<string, unknown> = {
      files: sources.length,
      constraints: benchConstraints.length,
      mk_check: check,
      mk_check_cpu_ms: checkCpuMs,
      mk_check_staged: staged,
      engines_in_process: compareEngines(root, sources),
      redos: redos(),
    }
    const ripgrep = ensureRipgrep()
    if (ripgrep) {
      const perPattern = codeConstraints.reduce((sum, constraint) => sum + timeProcess('rg', ripgrepArgs(constraint), root, 3), 0)
      const allAtOnce = timeProcess(
        'rg',
        ['--count-matches', '--glob', '!knowledge/**', ...codeConstraints.flatMap((constraint) => ['-e', constraint.pattern]), '.'],
        root,
        5,
      )
      figures.ripgrep = {
        searches: codeConstraints.length,
        one_process_per_search_total_ms: round(perPattern),
        one_process_all_patterns_ms: allAtOnce,
        mk_over_ripgrep_per_search: round(check.median_ms / perPattern, 2),
        mk_over_ripgrep_all_patterns: round(check.median_ms / allAtOnce, 2),
      }
    } else {
      figures.ripgrep = 'not available (apt-get install -y ripgrep failed)'
    }
    figures.scale = await benchCheckScale(ripgrep)
    const config = writeEslintConfig(root, importConstraints)
    const eslint = timeProcess(process.execPath, [join(repositoryRoot, 'node_modules/eslint/bin/eslint.js'), '-c', config, '--no-warn-ignored', '.'], root, 3)
    figures.eslint_no_restricted_imports = {
      median_ms: eslint,
      note: 'JS/TS files only, import statements only (no require), no Python',
      mk_over_eslint: round(check.median_ms / eslint, 3),
    }
    return figures
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
