import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { currentBuild, refBuild } from './compare-build.js'
import { workloads, type Figure, type Sample, type WorkloadOptions } from './compare-workloads.js'
import { calibrationMs, median, round } from './measure.js'
import type { BenchTexts } from './mcp-search.js'

const repository = fileURLToPath(new URL('../../../', import.meta.url))

const usage = `usage: npm run bench -- compare <git-ref> [--only ${Object.keys(workloads).join(',')}] [--sizes 1000,10000] [--rounds 5] [--provider bundled|none] [--texts bench|chat] [--serve-seconds 5]`

interface Arguments {
  ref: string
  only: string[]
  sizes: number[] | undefined
  rounds: number
  provider: 'bundled' | 'none'
  texts: BenchTexts
  serveSeconds: number
}

function parse(args: readonly string[]): Arguments {
  const [ref, ...rest] = args
  if (ref === undefined || ref.startsWith('--')) throw new Error(`name the git ref to compare with\n${usage}`)
  const parsed: Arguments = { ref, only: Object.keys(workloads), sizes: undefined, rounds: 5, provider: 'bundled', texts: 'bench', serveSeconds: 5 }
  for (let index = 0; index < rest.length; index += 2) {
    const [flag, value] = [rest[index], rest[index + 1]]
    if (value === undefined) throw new Error(`${flag ?? ''} needs a value\n${usage}`)
    const positive = (): number => {
      const number = Number(value)
      if (!Number.isInteger(number) || number < 1) throw new Error(`${flag ?? ''} takes a whole number of at least 1, not ${value}`)
      return number
    }
    if (flag === '--only') {
      parsed.only = value.split(',')
      const unknown = parsed.only.filter((name) => workloads[name] === undefined)
      if (unknown.length > 0) throw new Error(`no workload named ${unknown.join(', ')}; the workloads are ${Object.keys(workloads).join(', ')}`)
    } else if (flag === '--sizes') parsed.sizes = value.split(',').map((size) => Number(size))
    else if (flag === '--rounds') parsed.rounds = positive()
    else if (flag === '--serve-seconds') parsed.serveSeconds = positive()
    else if (flag === '--provider') {
      if (value !== 'bundled' && value !== 'none') throw new Error(`--provider is bundled or none, not ${value}`)
      parsed.provider = value
    } else if (flag === '--texts') {
      if (value !== 'bench' && value !== 'chat') throw new Error(`--texts is bench or chat, not ${value}`)
      parsed.texts = value
    } else throw new Error(`unknown option ${flag ?? ''}\n${usage}`)
  }
  return parsed
}

const load = (): number[] => loadavg().map((value) => round(value, 2))

/** Medians of each side, the ratio new/old of the medians and the median of the per-pair ratios, peak memory and CPU. */
function summarise(figure: Figure): Record<string, unknown> {
  const values = (samples: readonly Sample[]): number[] => samples.map((sample) => sample.value)
  const pairs = figure.old.flatMap((old, index) => {
    const next = figure.new[index]
    return next === undefined || old.value === 0 ? [] : [next.value / old.value]
  })
  const peak = (samples: readonly Sample[]): number | undefined => {
    const known = samples.flatMap((sample) => (sample.peakKb === undefined ? [] : [sample.peakKb]))
    return known.length === 0 ? undefined : round(Math.max(...known) / 1024)
  }
  const cpu = (samples: readonly Sample[]): number | undefined => {
    const known = samples.flatMap((sample) => (sample.cpuMs === undefined ? [] : [sample.cpuMs]))
    return known.length === 0 ? undefined : round(median(known))
  }
  const answered = (samples: readonly Sample[]): number | undefined => {
    const known = samples.flatMap((sample) => (sample.answered === undefined ? [] : [sample.answered]))
    return known.length === 0 ? undefined : round(known.filter(Boolean).length / known.length, 2)
  }
  const oldMedian = median(values(figure.old))
  const newMedian = median(values(figure.new))
  return {
    unit: figure.unit,
    pairs: pairs.length,
    old_median: round(oldMedian),
    new_median: round(newMedian),
    new_over_old: oldMedian === 0 ? null : round(newMedian / oldMedian, 2),
    pair_ratio_median: pairs.length === 0 ? null : round(median(pairs), 2),
    pair_ratio_range: pairs.length === 0 ? null : [round(Math.min(...pairs), 2), round(Math.max(...pairs), 2)],
    old_peak_mb: peak(figure.old) ?? null,
    new_peak_mb: peak(figure.new) ?? null,
    old_cpu_ms: cpu(figure.old) ?? null,
    new_cpu_ms: cpu(figure.new) ?? null,
    ...(answered(figure.new) === undefined ? {} : { old_answered_share: answered(figure.old) ?? null, new_answered_share: answered(figure.new) ?? null }),
  }
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  return rows
    .map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  '))
    .join('\n')
}

const cell = (value: unknown): string => (value === null || value === undefined ? '-' : Array.isArray(value) ? value.join('–') : String(value))

/**
 * `npm run bench -- compare <ref>`: the same workloads on a build of <ref> and on this checkout,
 * old and new in turn, so a machine that drifts (other processes, thermal limits) weighs on both.
 * JSON on stdout, a table on stderr.
 */
export async function compare(args: readonly string[]): Promise<void> {
  const parsed = parse(args)
  const builds = { old: refBuild(repository, parsed.ref), new: currentBuild(repository) }
  const options: WorkloadOptions = { builds, rounds: parsed.rounds, provider: parsed.provider, texts: parsed.texts, serveSeconds: parsed.serveSeconds }
  const results: Record<string, unknown> = {
    ref: parsed.ref,
    builds: Object.fromEntries(Object.entries(builds).map(([side, build]) => [side, { commit: build.commit, bin: build.bin, notes: build.notes }])),
    rounds: parsed.rounds,
    provider: parsed.provider,
    texts: parsed.texts,
    calibration_ms_before: calibrationMs(),
    load_average_before: load(),
  }
  const figures: Record<string, Record<string, unknown>> = {}
  for (const name of parsed.only) {
    const workload = workloads[name]
    if (workload === undefined) continue
    // --sizes applies to every workload that has sizes (files for the check, memories for search).
    const sizes = workload.sized ? (parsed.sizes ?? workload.defaultSizes) : workload.defaultSizes
    for (const size of sizes) {
      process.stderr.write(`compare: ${name} at ${size}...\n`)
      const before = load()
      try {
        const measured = await workload.run(size, options)
        const after = load()
        for (const [figure, samples] of Object.entries(measured))
          figures[figure] = { ...summarise(samples), load_average_before: before, load_average_after: after }
      } catch (error) {
        // An old build may lack a command (`mk serve` is younger than some refs): the other workloads still run.
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
        process.stderr.write(`compare: ${name} at ${size} failed: ${message}\n`)
        figures[`${name}_${size}`] = { error: message, load_average_before: before, load_average_after: load() }
      }
    }
  }
  results.figures = figures
  results.calibration_ms_after = calibrationMs()
  results.load_average_after = load()
  const header = ['figure', 'unit', 'old', 'new', 'new/old', 'pair ratios (median, range)', 'peak MB old/new', 'cpu ms old/new', 'load 1m']
  const rows = Object.entries(figures).map(([name, figure]) =>
    figure.error !== undefined
      ? [name, `failed: ${cell(figure.error)}`.slice(0, 120)]
      : [
          name,
          cell(figure.unit),
          cell(figure.old_median),
          cell(figure.new_median),
          cell(figure.new_over_old),
          `${cell(figure.pair_ratio_median)} (${cell(figure.pair_ratio_range)})`,
          `${cell(figure.old_peak_mb)}/${cell(figure.new_peak_mb)}`,
          `${cell(figure.old_cpu_ms)}/${cell(figure.new_cpu_ms)}`,
          `${cell((figure.load_average_before as number[])[0])}→${cell((figure.load_average_after as number[])[0])}`,
        ],
  )
  process.stderr.write(
    `\nold = ${parsed.ref} (${builds.old.commit.slice(0, 12)}; ${builds.old.notes.join('; ')})\nnew = ${builds.new.commit.slice(0, 12)} (${builds.new.notes.join('; ')})\n`,
  )
  process.stderr.write(`${table([header, ...rows])}\n`)
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
}
