import type { Style } from '../../style.js'
import { renderTable } from '../table.js'
import type { EvalReportOutput } from './schemas.js'

type Result = EvalReportOutput['results'][number]

const metricLabels: Record<string, string> = {
  ndcgAt10: 'nDCG@10',
  recallAt100: 'R@100',
  recallAt5: 'R@5',
  recallAt10: 'R@10',
  recallAt25: 'R@25',
  precisionAt1: 'P@1',
  recallAt3: 'R@3',
  mrrAt10: 'MRR@10',
}

/** BEIR figures are read as fractions (0.683), LoCoMo recalls as percentages (67.4), as their papers print them. */
function formatMetric(kind: EvalReportOutput['dataset']['kind'], value: number): string {
  return kind === 'locomo' ? (value * 100).toFixed(1) : value.toFixed(3)
}

const percent = (value: number | undefined): string => (value === undefined ? '-' : `${(value * 100).toFixed(0)}%`)

const ms = (value: number): string => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(value < 10 ? 1 : 0)} ms`)

export function renderEvalReport(report: EvalReportOutput, style: Style): string {
  const { kind } = report.dataset
  const names = Object.keys(report.results[0]?.metrics ?? {})
  const modes = renderTable<Result>(
    report.results,
    [
      { header: 'MODE', value: (result) => result.mode, decorate: (text) => style.cyan(text) },
      ...names.map((name) => ({ header: metricLabels[name] ?? name, value: (result: Result) => formatMetric(kind, result.metrics[name] ?? 0) })),
      { header: 'ABSTAIN', value: (result) => percent(result.abstention.abstentionRate) },
      { header: 'FALSE ABST', value: (result) => percent(result.abstention.falseAbstentionRate) },
      { header: 'P50', value: (result) => ms(result.latency.p50Ms) },
      { header: 'P95', value: (result) => ms(result.latency.p95Ms) },
    ],
    style.bold,
  )
  const categoryTables = report.results.flatMap((result) =>
    result.categories === undefined
      ? []
      : [
          `\n${style.bold(`By category (${result.mode})`)}\n${renderTable(
            result.categories,
            [
              { header: 'CATEGORY', value: (category) => `${category.category} ${category.name}` },
              { header: 'QUESTIONS', value: (category) => String(category.questions) },
              ...names.map((name) => ({
                header: metricLabels[name] ?? name,
                value: (category: { metrics: Record<string, number> }) => {
                  const value = category.metrics[name]
                  return value === undefined ? '-' : formatMetric(kind, value)
                },
              })),
              { header: 'ABSTAINED', value: (category) => percent(category.metrics.abstained) },
            ],
            style.dim,
          )}`,
        ],
  )
  const thresholdLines = report.results.map(({ mode, abstention }) => {
    const kept = names.map((name) => `${metricLabels[name] ?? name} ${formatMetric(kind, abstention.metricsAtThreshold[name] ?? 0)}`).join(', ')
    const answerable = `${percent(abstention.falseAbstentionRate)} of ${abstention.answerable} answerable`
    const abstained =
      abstention.abstentionRate === undefined
        ? `abstained on ${answerable} questions (the set has no unanswerable ones)`
        : `abstained on ${percent(abstention.abstentionRate)} of ${abstention.unanswerable} unanswerable questions and on ${answerable} ones`
    return `${mode} at threshold ${abstention.threshold}: ${abstained}; ${kept} on what it kept`
  })
  const { build, dataset } = report
  const summary = [
    `${dataset.spec}: ${dataset.documents} documents in ${dataset.indexes} index${dataset.indexes === 1 ? '' : 'es'}, ${dataset.queries} queries`,
    `model ${report.model ?? '(none: full text only)'}, text weight ${report.textWeight}`,
    `build ${ms(build.totalMs)} (index ${ms(build.indexMs)}, embedding ${ms(build.embedMs)}: ${build.embeddedDocuments} embedded, ${build.cachedDocuments} from cache)`,
  ]
  return [style.dim(summary.join('\n')), '', modes, '', ...thresholdLines, ...categoryTables].join('\n')
}
