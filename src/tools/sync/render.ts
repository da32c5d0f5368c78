import type { StaleMemory } from '../../sync/stale.js'
import type { SourceReport, SyncFailure, SyncReport } from '../../sync/report.js'
import type { Style } from '../../style.js'
import { renderTable } from '../table.js'
import { plural } from '../../text.js'

const shownChanges = 20

export function summarizeSync(report: SyncReport): string {
  const counts = `${report.added} added, ${report.updated} updated, ${report.deleted} deleted, ${report.unchanged} unchanged`
  const failedSources = report.sources.filter((source) => source.action === 'failed').length
  const failedItems = report.failures.length - failedSources
  const problems = [
    failedSources > 0 ? `${plural(failedSources, 'source')} failed` : '',
    failedItems > 0 ? `${plural(failedItems, 'item')} failed to parse` : '',
  ]
    .filter((part) => part !== '')
    .join(', ')
  return `Synced ${plural(report.sources.length, 'source')}: ${counts}.${problems === '' ? '' : ` ${problems}.`}`
}

function describeAction(source: SourceReport): string {
  const short = (commit: string | undefined): string => commit?.slice(0, 7) ?? '?'
  switch (source.action) {
    case 'updated':
      return `updated ${short(source.previousCommit)}..${short(source.commit)}`
    case 'cloned':
      return `cloned at ${short(source.commit)}`
    case 'unchanged':
      return `up to date at ${short(source.commit)}`
    default:
      return source.action
  }
}

function renderFailure(failure: SyncFailure, style: Style): string {
  const where = failure.path === undefined ? '' : ` ${failure.path}`
  const head = `${style.red('✗')} ${style.dim(`[${failure.errorCode}${failure.retryable ? ', retryable' : ''}]`)}${where ? style.bold(where) : ''} ${failure.message}`
  return failure.hint === undefined ? head : `${head}\n  ${style.dim('fix:')} ${failure.hint}`
}

export function renderSyncReport(report: SyncReport, staleMemories: readonly StaleMemory[], style: Style): string {
  const table = renderTable(
    report.sources,
    [
      { header: 'SOURCE', value: (source) => source.name, decorate: (text) => style.cyan(text) },
      { header: 'LAYER', value: (source) => source.layer },
      { header: 'STATE', value: describeAction, decorate: (text, source) => (source.action === 'failed' ? style.red(text) : text) },
      { header: 'CHANGES', value: (source) => `+${source.added} ~${source.updated} -${source.deleted} =${source.unchanged}` },
    ],
    style.bold,
  )
  const changes = report.changes
    .slice(0, shownChanges)
    .map((change) => `  ${change.change.padEnd(7)} ${change.id ?? change.path} ${style.dim(`(${change.source}: ${change.path})`)}`)
  const more = report.changes.length > shownChanges ? [style.dim(`  … and ${report.changes.length - shownChanges} more (--json lists all)`)] : []
  const failures = report.failures.map((failure) => renderFailure(failure, style))
  const stale = staleMemories.map((memory) => `${style.yellow('stale')} ${style.cyan(memory.memoryId)} ${style.dim(`[${memory.layer}]`)} ${memory.reason}`)
  return [table, ...changes, ...more, ...failures, ...stale, style.dim(summarizeSync(report))].join('\n')
}
